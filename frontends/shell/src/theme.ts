import type { ThemeConfig } from '@decor/web-core/ui';

/** The one theme of the product: the shell's ConfigProvider reaches every remote (antd is shared). */
export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#8a5a44',
    colorLink: '#8a5a44',
    colorInfo: '#8a5a44',
    borderRadius: 6,
    fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
  },
  components: {
    Layout: { headerBg: '#2b2420', headerColor: '#faf7f2', bodyBg: '#faf7f2', siderBg: '#ffffff' },
  },
};
