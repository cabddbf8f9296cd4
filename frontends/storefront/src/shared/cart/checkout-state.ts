import type { EventDetails, WillCall } from '@decor/contracts/rules';

/** The navigation state carried from the cart to the event form to the summary (and back to the cart). */
export interface CheckoutState {
  cartId: string;
  event?: EventDetails;
  willCall?: WillCall;
}
