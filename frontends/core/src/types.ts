/** Shapes of the API (spec §3 and the services' route schemas). Money in dollars at the edge. */
import type { EventDetails, SessionUserView, WillCall } from '@decor/contracts/rules';

/**
 * The session user (`/auth/jwt`): contracts' view. Its permission string is read with contracts'
 * roles (isStaff, isCustomer, isSuperadmin), the one vocabulary.
 */
export type User = SessionUserView;

export interface ProductImage {
  id: string;
  url: string;
  primary: boolean;
  type: string;
}

export interface Product {
  id: string;
  name: string;
  description: string;
  category: string;
  subcategory: string;
  Images: ProductImage[];
  price?: number;
  quantity?: number;
  qboId?: string | null;
  syncToken?: string | null;
  /** Staff only: the product's own turnaround buffer in days (issue 15); null inherits its category's. */
  turnaroundBefore?: number | null;
  turnaroundAfter?: number | null;
}

/** A cart and its lines as the cart API answers them (contracts' views). */
export type { CartLineView as CartLine, CartView as Cart } from '@decor/contracts/rules';

export interface Subcategory {
  id: string;
  name: string;
}

export interface Category {
  id: string;
  name: string;
  subcategories: Subcategory[];
}

/** The order request's fields: contracts' one table (names, required ones). */
export type { EventDetails, WillCall } from '@decor/contracts/rules';

export type EstimateRequest = { CartId: string; status: 'Pending' } & EventDetails & WillCall;

export interface TruckingFee {
  id: string;
  value: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}
