/** Spec §5: will-call details appear on the summary only if at least two will-call values are filled. */
export { filledWillCallValues, showWillCall } from '@decor/contracts/rules';
