import { createAppStore } from '@decor/web-core';
import { BrowserRouter } from '@decor/web-core/router';
import { ConfigProvider } from '@decor/web-core/ui';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { AppFrame } from './frame/AppFrame';
import './shared-for-remotes';
import { theme } from './theme';

const store = createAppStore();
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Provider store={store}>
        <ConfigProvider theme={theme}>
          <BrowserRouter>
            <AppFrame />
          </BrowserRouter>
        </ConfigProvider>
      </Provider>
    </StrictMode>,
  );
}
