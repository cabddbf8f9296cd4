/** Spec §5: will-call details appear on the summary only if at least two will-call values are filled. */
export { WILL_CALL_FIELDS } from '@decor/contracts/src/estimate-fields';
export { filledWillCallValues, showWillCall } from '@decor/contracts/src/summary-format';
