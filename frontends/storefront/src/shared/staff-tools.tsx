import type { Product } from '@decor/web-core';
import { type ComponentType, createContext, useContext } from 'react';

/**
 * Staff's product tools on the inventory's pages: product-admin's Add Product dialog and its edit and
 * delete icons. The app hands them to the inventory (src/inventory.tsx), so the inventory feature never
 * imports product-admin; they are chunks of their own, rendered (and downloaded) for staff only.
 */
export interface StaffTools {
  AddProduct: ComponentType<{ category: string; subcategory: string }>;
  ProductAdminActions: ComponentType<{ product: Product; category: string; subcategory: string }>;
}

export const StaffToolsContext = createContext<StaffTools | null>(null);

export const useStaffTools = (): StaffTools | null => useContext(StaffToolsContext);
