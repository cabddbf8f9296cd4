/*
 * The event and will-call fields (names, labels, kinds, limits, which are required or read-only)
 * are contracts' one table: EVENT_FIELD_SPECS / WILL_CALL_FIELD_SPECS from '@decor/contracts/rules'.
 */

// The navigation state carried between the steps (CheckoutState) is shared/cart's: the cart screen is
// also the carts feature's.

/** Spec §2 terms (section 9 constants). */
export const TERMS = [
  'An overtime fee of $35.00 per staff member per hour (or part of an hour) applies when the set or strike cannot take place at the contracted time.',
  'Strikes after 11:00pm are charged extra labor.',
  'Orders of $600.00 or less (excluding taxes and trucking) carry a $100.00 minimum service charge.',
  'Special orders require a 50% non-refundable payment upfront, due within one week of the signed contract.',
  'Trucking and labor charges are estimates.',
  'The warranty period is ten days.',
];
