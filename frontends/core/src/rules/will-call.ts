/** Spec §5: will-call details appear on the summary only if at least two will-call values are filled. */
export { filledWillCallValues, showWillCall, WILL_CALL_FIELDS } from '@decor/contracts/rules';
