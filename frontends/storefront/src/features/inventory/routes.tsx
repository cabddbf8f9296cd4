import {
  isCustomer,
  setActiveSubCategory,
  setOpenedCategory,
  useAppDispatch,
  useAppSelector,
} from '@decor/web-core';
import { Link, Route, Routes, useParams } from '@decor/web-core/router';
import { useEffect } from 'react';
import { inventoryPath } from '../../shared/inventory-path';
import { CartBadge } from './components/CartBadge';
import { preloadAddToCart } from './components/CustomerAddToCart';
import { ProductList } from './components/ProductList';
import { ProductPage } from './components/ProductPage';
import { SideNav } from './components/SideNav';

/** Opens the side navigation according to the URL (spec §2). */
function FromUrl({ children }: { children: React.ReactNode }) {
  const { category, subcategory } = useParams();
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (category) dispatch(setOpenedCategory(category));
    if (subcategory) dispatch(setActiveSubCategory(subcategory));
  }, [category, subcategory, dispatch]);
  return <>{children}</>;
}

/** Any other /inventory path: the landing screen. */
function Landing() {
  const categories = useAppSelector((s) => s.sideNav.categories).filter((c) => c.name !== 'Warehouse');
  return (
    <section style={{ flex: 1, padding: 'clamp(12px, 3vw, 28px)' }}>
      <h1 style={{ marginTop: 0 }}>Our inventory</h1>
      <p className="lead">
        Choose a category to browse our rental decor. Signed-in customers see prices and can add pieces to a
        cart.
      </p>
      <ul style={{ display: 'flex', flexWrap: 'wrap', gap: 12, listStyle: 'none', padding: 0 }}>
        {categories.map((c) =>
          c.subcategories[0] ? (
            <li key={c.id}>
              <Link to={inventoryPath(c.name, c.subcategories[0].name)}>{c.name}</Link>
            </li>
          ) : null,
        )}
      </ul>
    </section>
  );
}

/** The storefront's inventory (exposed with staff's tools as storefront/Inventory: src/inventory.tsx). */
export default function Inventory() {
  const customer = useAppSelector((s) => isCustomer(s.session.user?.permissions));
  useEffect(() => {
    if (customer) preloadAddToCart().catch(() => undefined); // a card retries when it renders
  }, [customer]);
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', flex: 1, alignItems: 'stretch' }}>
      <SideNav />
      <Routes>
        <Route
          path=":category/:subcategory"
          element={
            <FromUrl>
              <ProductList />
            </FromUrl>
          }
        />
        <Route
          path=":category/:subcategory/:productId"
          element={
            <FromUrl>
              <ProductPage />
            </FromUrl>
          }
        />
        <Route path="*" element={<Landing />} />
      </Routes>
      <CartBadge />
    </div>
  );
}
