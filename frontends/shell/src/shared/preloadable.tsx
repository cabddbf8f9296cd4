import { type ComponentType, lazy } from 'react';

/**
 * A lazily loaded page that can also be loaded ahead of its first render. A server-rendered page is
 * hydrated only once the chunks it shows are here (bootstrap.tsx): rendering the loaded module
 * directly then keeps React from suspending inside HTML it is hydrating, which would replace the
 * server's content by the loader.
 */
export function preloadable<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  function Page(props: P) {
    const Loaded = loaded ?? Lazy;
    return <Loaded {...props} />;
  }
  return Object.assign(Page, { preload });
}
