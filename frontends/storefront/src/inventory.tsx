import { lazy } from 'react';
import InventoryRoutes from './features/inventory/routes';
import { type StaffTools, StaffToolsContext } from './shared/staff-tools';

// Each its own chunk, never downloaded by customers or visitors: the inventory renders them for staff only.
const STAFF_TOOLS: StaffTools = {
  AddProduct: lazy(() => import('./features/product-admin/components/AddProduct')),
  ProductAdminActions: lazy(() => import('./features/product-admin/components/ProductAdminActions')),
};

/**
 * storefront/Inventory (mounted by the shell at /inventory/*, and rendered on the server): the
 * inventory feature with product-admin's tools handed in, the two features composed here.
 */
export default function Inventory() {
  return (
    <StaffToolsContext.Provider value={STAFF_TOOLS}>
      <InventoryRoutes />
    </StaffToolsContext.Provider>
  );
}
