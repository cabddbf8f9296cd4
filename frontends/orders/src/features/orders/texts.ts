import { MODIFIED_STATUS_TEXT } from '@decor/contracts/rules';

/** Every word the order screens show (spec orders §2, §4, §6, §8); the lifecycle's from contracts. */
export const TEXTS = {
  heading: 'Orders',
  estimates: 'Estimates',
  invoices: 'Invoices',
  searchEstimate: 'Search by estimate ID',
  searchInvoice: 'Search by invoice ID',
  filter: 'Filter by status',
  nothingFound: 'Nothing was found',
  listError: 'An error occurred while retrieving your orders',
  fetchError: 'An error occurred while fetching the order',
  submitError: 'There was an error while submitting your request',
  invoiceUpdateError: 'There was an error while updating the invoice',
  invoiceRequestError: 'There was an error while requesting the invoice',
  copyError: 'An error occurred while copying the cart',
  quickAddLoadError: 'Failed to load products for quick add',
  quickAddSearchError: 'An error occurred while fetching the products',
  quickAdd: 'Quick add',
  quickAddProduct: 'Product to add',
  quickAddQty: 'Quantity to add',
  add: 'Add',
  pendingApproval: MODIFIED_STATUS_TEXT.customer,
  pendingUpdate: MODIFIED_STATUS_TEXT.staff,
  options: 'Options',
  edit: 'Edit',
  requestInvoice: 'Request Invoice',
  sendToQbo: 'Send to QuickBooks',
  updateInQbo: 'Update it in Quickbooks',
  complete: 'Complete Order',
  cancelOrder: 'Cancel Order',
  copyCart: 'Copy Cart',
  cancel: 'Cancel',
  update: 'Update Order',
  cart: 'Cart',
  eventDetails: 'Event Details',
  willCallDetails: 'Will Call Details',
  overbookTitle: 'Book anyway (sub-rental)?',
  overbookBody:
    'These lines need more units than are free. Booking anyway records the order as overbooked (a sub-rental) and lists it under the availability conflicts.',
  overbookConfirm: 'Book anyway',
  overbookKeep: 'Keep editing',
  cancelTitle: 'Cancel this order?',
  cancelBody: 'The order will be voided. This cannot be undone.',
  cancelConfirm: 'Yes, cancel the order',
  keepOrder: 'Keep the order',
  customerPage: 'View customer',
  required: 'This field is required',
  noActiveCart: 'You have no active cart to copy into',
  success: {
    updated: 'Your order has been updated!',
    invoiceRequested: 'Your invoice has been requested!',
    sentToQbo: 'The order is being sent to QuickBooks.',
    updatedInQbo: 'The order is being updated in QuickBooks.',
    completed: 'The order has been completed!',
    cancelled: 'The order has been cancelled.',
    copied: "The order's cart has been copied into your active cart!",
  },
} as const;

/** Spec §9: lists load 20 at a time. */
export const ORDERS_PAGE_SIZE = 20;

/** Staff's QuickBooks status text (spec §2 Order detail). */
export function qboStatusText(order: {
  isInQbo: boolean;
  hasBeenModified: boolean;
  qboId: string | null;
}): string {
  if (!order.isInQbo) return 'Not in QuickBooks yet';
  if (order.hasBeenModified) return `In QuickBooks (#${order.qboId ?? '—'}), changes not yet sent`;
  return `In QuickBooks (#${order.qboId ?? '—'}), up to date`;
}
