import type { ThemeConfig } from '@decor/web-core/ui';

/** The one theme of the product: the shell's ConfigProvider reaches every remote (antd is shared). */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#8a5a44',
    colorLink: '#8a5a44',
    colorInfo: '#8a5a44',
    // Contrast (WCAG AA, 4.5:1 on white and on the page's #faf7f2): hover/active states darken instead
    // of antd's lighter defaults, error texts and danger buttons use a darker red, secondary texts are
    // darker (the preset tag colours: index.html).
    colorPrimaryHover: '#6e4636',
    colorPrimaryActive: '#5c3a2c',
    colorLinkHover: '#6e4636',
    colorLinkActive: '#5c3a2c',
    colorError: '#cf1322',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.62)',
    borderRadius: 6,
    fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#2b2420', headerColor: '#faf7f2', bodyBg: '#faf7f2', siderBg: '#ffffff' },
  },
};
