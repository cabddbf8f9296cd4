/**
 * The public pages' HTML, rendered on the server as a visitor sees them (issue 17). Bundled for node
 * by infra's server-renderer.ts (no federation: the storefront's screen is imported directly, see
 * ./remotes.ts) and called by the gateway (gateway/src/page-render.ts), which caches the pages and
 * clears them on catalogue events.
 *
 * A page is rendered from the store's data, fetched first (the API through the gateway itself), then
 * rendered to a string once its lazily loaded page is here. The store's data
 * goes with the HTML so the browser's first render matches it (core/src/server-state.ts).
 */
import { createCache, extractStyle, StyleProvider } from '@ant-design/cssinjs';
import {
  type AppStore,
  api,
  createAppStore,
  fetchCategories,
  http,
  serialiseServerState,
  setActiveSubCategory,
  setOpenedCategory,
} from '@decor/web-core';
import { ConfigProvider } from '@decor/web-core/ui';
import axios, { AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { StaticRouter } from 'react-router';
import { App, Gallery, Home, Tos } from '../app';
import { type PublicPage, publicPageOf } from '../public-pages';
import { HELD_SCRIPT_TYPE, SESSION_BOOT, SESSION_MARK_SCRIPT, SESSION_MARK_STYLE } from '../session-mark';
import { theme } from '../theme';
import { hydratableStyles } from './styles';

/** What the API answered a GET (the gateway answers it in-process). */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}
export type FetchApi = (url: string) => Promise<ApiAnswer>;

export interface RenderedPage {
  /** The root's inner HTML. */
  html: string;
  /** antd's styles for that HTML (`<style>` elements). */
  styles: string;
  /** The store's data, JSON safe inside a script element. */
  state: string;
  /** Scripts the first paint's hydration needs beyond the shell's own (a remote's entry). */
  preloadScripts: string[];
}

/**
 * What every rendered page carries for a signed-in load (../session-mark.ts): the blocking script's
 * source (the gateway serves it under a hashed name and puts it in <head>), its style for <head>,
 * the loader that goes before the root, and the type the page's entry scripts carry until that script
 * starts them after the first paint.
 */
export const sessionMark = {
  script: SESSION_MARK_SCRIPT,
  style: SESSION_MARK_STYLE,
  boot: SESSION_BOOT,
  heldScriptType: HELD_SCRIPT_TYPE,
};

/** The one axios client asks the API through `fetchApi` (visitors only: no token on the server). */
export function useApi(fetchApi: FetchApi): void {
  http.defaults.adapter = async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
    const answer = await fetchApi(axios.getUri(config));
    const response: AxiosResponse = {
      data: answer.body,
      status: answer.status,
      statusText: String(answer.status),
      headers: answer.headers as AxiosResponse['headers'],
      config,
    };
    if (answer.status >= 200 && answer.status < 300) return response;
    throw new AxiosError(`API answered ${answer.status}`, undefined, config, undefined, response);
  };
}

async function fetchData(store: AppStore, page: PublicPage): Promise<void> {
  switch (page.kind) {
    case 'home':
    case 'gallery':
      await store.dispatch(api.endpoints.getProducts.initiate({}));
      return;
    case 'tos':
      return;
    case 'inventory': {
      const { category, subcategory, productId } = page;
      const categories = store.dispatch(fetchCategories());
      // The storefront opens the side navigation from the address in an effect; here, before rendering.
      if (category) store.dispatch(setOpenedCategory(category));
      if (subcategory) store.dispatch(setActiveSubCategory(subcategory));
      const products =
        productId !== undefined
          ? store.dispatch(api.endpoints.getProduct.initiate(productId))
          : category && subcategory
            ? store.dispatch(api.endpoints.listProducts.initiate({ category, subcategory: [subcategory] }))
            : undefined;
      await Promise.all([categories, products]);
    }
  }
}

/** Whether every answer the page needs arrived: a page with an error is left to the browser. */
function complete(store: AppStore): boolean {
  const state = store.getState();
  if (state.sideNav.error) return false;
  const queries = Object.values(state.api.queries);
  return queries.every((q) => q?.status === 'fulfilled');
}

/**
 * The page's chunks, loaded before rendering: nothing suspends, so the synchronous renderer gives the
 * whole page (the streaming renderers add inline scripts for Suspense, which the CSP refuses).
 */
async function loadPage(page: PublicPage): Promise<void> {
  if (page.kind === 'home') await Home.preload();
  if (page.kind === 'gallery') await Gallery.preload();
  if (page.kind === 'tos') await Tos.preload();
}

/** The page at `url` as a visitor sees it, or null when it is not a public page or its data failed. */
export async function renderPage(url: string): Promise<RenderedPage | null> {
  const pathname = new URL(url, 'http://page').pathname;
  const page = publicPageOf(pathname);
  if (!page) return null;
  const store = createAppStore();
  await Promise.all([fetchData(store, page), loadPage(page)]);
  if (!complete(store)) return null;
  const cache = createCache();
  const body = renderToString(
    <StrictMode>
      <StyleProvider cache={cache}>
        <Provider store={store}>
          <ConfigProvider theme={theme}>
            <StaticRouter location={pathname}>
              <App />
            </StaticRouter>
          </ConfigProvider>
        </Provider>
      </StyleProvider>
    </StrictMode>,
  );
  const { api: apiState, sideNav } = store.getState();
  return {
    html: body,
    styles: hydratableStyles(extractStyle(cache)),
    state: serialiseServerState({ api: apiState, sideNav }),
    preloadScripts: page.kind === 'inventory' ? ['/remotes/storefront/remoteEntry.js'] : [],
  };
}
