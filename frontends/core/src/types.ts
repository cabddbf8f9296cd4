/** Shapes of the API (spec §3 and the services' route schemas). Money in dollars at the edge. */

export type Permission = 'customer' | 'admin' | 'superadmin' | 'company' | (string & {});

export interface SessionCart {
  id: string;
  cartName: string;
  cartTotal: number;
}

export interface User {
  id: string;
  firstName: string;
  lastName: string;
  displayName: string;
  email: string;
  phone: string | null;
  permissions: Permission;
  active: boolean;
  ownCompany: string | null;
  CompanyId: string | null;
  qboId: string | null;
  cart?: SessionCart | null;
}

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

export interface CartLine {
  id: string;
  CartId: string;
  CartProductId: string;
  name: string;
  description: string;
  qty: number;
  price: number;
  total: number;
  quantity: number;
  qboId: string | null;
}

export interface Cart {
  id: string;
  UserId: string;
  cartName: string;
  isActive: boolean;
  didCheckOut: boolean;
  createdAt: string;
  cartTotal: number;
  CartProducts: CartLine[];
}

export interface Subcategory {
  id: string;
  name: string;
}

export interface Category {
  id: string;
  name: string;
  subcategories: Subcategory[];
}

export interface EventDetails {
  customerName: string;
  groupName: string;
  eventDate: string;
  location: string;
  operationsManager?: string;
  eventStartTime?: string;
  eventEndTime?: string;
  room?: string;
  loadInTime?: string;
  setByTime?: string;
  strikeTime?: string;
  commentsOnSetup?: string;
  commentsOnEvent?: string;
}

export interface WillCall {
  willCallCustomerName?: string;
  willCallPickupDate?: string;
  willCallPickupTime?: string;
  willCallReturnDate?: string;
  willCallReturnTime?: string;
}

export type EstimateRequest = { CartId: string; status: 'Pending' } & EventDetails & WillCall;

export interface TruckingFee {
  id: string;
  value: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}
