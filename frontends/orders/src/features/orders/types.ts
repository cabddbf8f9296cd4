/** The order API's shapes: contracts' views (spec §3 Order plus the server's `actions`). Money in dollars. */
import type {
  AcceptanceState,
  ActionAvailability,
  OrderLineView,
  OrderStatus,
  OrderView,
  UiAction,
} from '@decor/contracts/rules';

export type { OrderStatus, OrderType } from '@decor/contracts/rules';

/** What the caller may do with the order, decided by the server; `reason` is the spec §6 tooltip. */
export type ActionDecision = ActionAvailability;
/** The buttons the server decides (the lifecycle's UI actions, in contracts). */
export type ActionName = UiAction;

/** An order's line (contracts' view). */
export type OrderLine = OrderLineView;

/**
 * An estimate or invoice as the order API answers it (contracts' view): an estimate's hasInvoice and
 * acceptance, an invoice's EstimateId. The order screens read the full acceptance from
 * `GET /estimate/:id/acceptance`.
 */
export type Order = OrderView;

/** The list's filter (spec §2): a status or the modified flag. */
export type OrderFilter = 'all' | Lowercase<OrderStatus> | 'hasBeenModified';

/** Staff's second filter of the estimates (issue 30): where the acceptance stands (`acceptance=`). */
export type AcceptanceFilter = 'all' | AcceptanceState;
