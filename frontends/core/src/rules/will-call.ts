/** Spec §5: will-call details appear on the summary only if at least two will-call values are filled. */
import type { WillCall } from '../types';

export const WILL_CALL_FIELDS = [
  'willCallCustomerName',
  'willCallPickupDate',
  'willCallPickupTime',
  'willCallReturnDate',
  'willCallReturnTime',
] as const satisfies readonly (keyof WillCall)[];

export function filledWillCallValues(willCall: WillCall): number {
  return WILL_CALL_FIELDS.filter((field) => (willCall[field] ?? '').trim() !== '').length;
}

export function showWillCall(willCall: WillCall): boolean {
  return filledWillCallValues(willCall) >= 2;
}
