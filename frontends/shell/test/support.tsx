import { type AppStore, createAppStore } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';

/** Shows where the router is, so a test can see a redirect. */
export function WhereAmI() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname}</output>;
}

export function renderAt(path: string, ui: ReactNode, store: AppStore = createAppStore()) {
  const view = render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[path]}>
        {ui}
        <Routes>
          <Route path="*" element={<WhereAmI />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { ...view, store };
}
