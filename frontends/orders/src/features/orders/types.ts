/** The order API's shapes (spec §3 Order plus the server's `actions` for the caller). Money in dollars. */
import type {
  AcceptanceState,
  ActionAvailability,
  DepositState,
  EstimateDetailField,
  OrderActionsView,
  OrderStatus,
  SubRental,
  UiAction,
} from '@decor/contracts/rules';

export type { OrderStatus } from '@decor/contracts/rules';
export type OrderType = 'estimate' | 'invoice';

/** What the caller may do with the order, decided by the server; `reason` is the spec §6 tooltip. */
export type ActionDecision = ActionAvailability;
/** The buttons the server decides (the lifecycle's UI actions, in contracts). */
export type ActionName = UiAction;
export type OrderActions = OrderActionsView;

export interface OrderLine {
  id: string;
  name: string;
  description: string;
  qty: number;
  price: number;
  total: number;
  qboId: string | null;
}

export type OrderDetails = Record<EstimateDetailField, string | null>;

export interface Order extends OrderDetails {
  id: string;
  DocNumber: string;
  UserId: string;
  CartId: string;
  /** Invoices: the estimate they came from. */
  EstimateId?: string;
  status: OrderStatus | (string & {});
  hasBeenModified: boolean;
  /** Estimates: an invoice was created from it. */
  hasInvoice?: boolean;
  isInQbo: boolean;
  qboId: string | null;
  syncToken: string | null;
  subtotal: number;
  truckingFee: number;
  salesTax: number;
  total: number;
  createdAt: string;
  CartProducts: OrderLine[];
  User: { displayName: string; ownCompany: string | null; email: string; qboId: string | null };
  /** Staff only: the order was booked beyond the free units on purpose (who, when, which lines). */
  subRental?: SubRental;
  actions?: Partial<OrderActions>;
  /**
   * Estimates, when the server tells it in the list (issue 30): where the customer's acceptance
   * stands; the order screens read the full view from `GET /estimate/:id/acceptance`.
   */
  acceptance?: { state: AcceptanceState; depositState?: DepositState | null; expiresAt?: string | null };
}

/** The list's filter (spec §2): a status or the modified flag. */
export type OrderFilter = 'all' | Lowercase<OrderStatus> | 'hasBeenModified';

/** Staff's second filter of the estimates (issue 30): where the acceptance stands (`acceptance=`). */
export type AcceptanceFilter = 'all' | AcceptanceState;
