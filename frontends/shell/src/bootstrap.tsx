import { createAppStore, readServerState, storedToken } from '@decor/web-core';
import { BrowserRouter } from '@decor/web-core/router';
import { ConfigProvider } from '@decor/web-core/ui';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { App, Gallery, Home, Tos } from './app';
import { type PublicPage, publicPageOf } from './public-pages';
import { loadScreen } from './remotes';
import { dropServerPage } from './session-mark';
import './shared-for-remotes';
import { theme } from './theme';

/** The chunks a server-rendered page shows, loaded before hydrating it (preloadable). */
function loadPage(page: PublicPage): Promise<unknown> {
  switch (page.kind) {
    case 'home':
      return Home.preload();
    case 'gallery':
      return Gallery.preload();
    case 'tos':
      return Tos.preload();
    case 'inventory':
      return loadScreen('storefront', 'Inventory');
  }
}

export async function start(root: HTMLElement): Promise<void> {
  // A public page comes rendered by the server, with the data it was rendered from (issue 17): a
  // visitor's page. A signed-in load never hydrates it (its state differs): the page was kept hidden
  // (session-mark.ts) and is dropped here; the client renders it from scratch as for any other path.
  const serverState = readServerState();
  const signedIn = storedToken() !== null;
  if (serverState && signedIn) dropServerPage(root);
  const page = serverState && !signedIn ? publicPageOf(window.location.pathname) : null;
  // Asked for first: the page's chunks download while the store is made.
  // A screen that cannot load (a remote down) leaves the server's page to the error boundary.
  const pageLoaded = page ? loadPage(page).catch(() => undefined) : null;
  const store = createAppStore(page ? serverState : null);
  const app = (
    <StrictMode>
      <Provider store={store}>
        <ConfigProvider theme={theme}>
          <BrowserRouter>
            <App />
          </BrowserRouter>
        </ConfigProvider>
      </Provider>
    </StrictMode>
  );
  if (pageLoaded) {
    await pageLoaded;
    // As a transition, hydration yields to the browser every few milliseconds: a tap on the page
    // is handled between slices instead of waiting for the whole tree (a phone's long tasks).
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    createRoot(root).render(app);
  }
}
