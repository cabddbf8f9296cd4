/** Spec §5 summary formats: the same code as the e-mails (services/contracts/src/summary-format.ts). */
export { formatLongDate, formatTime, ordinal } from '@decor/contracts/rules';
