export * from './acceptance';
export * from './acceptance-schemas';
// acceptance.ts re-exports these as types (for browsers): here the schemas, as values, win.
export {
  AcceptanceExtension,
  AcceptanceRequest,
  AcceptanceSettings,
  AcceptanceSettingsChange,
  AcceptanceView,
} from './acceptance-schemas';
export * from './accounting-events';
export * from './availability';
export * from './availability-schemas';
// availability.ts re-exports these as types (for browsers): here the schemas, as values, win.
export {
  AvailabilityCalendar,
  AvailabilityConflict,
  AvailabilityHint,
  DayHold,
  HoldingOrder,
  ProductAvailability,
  ShortLinesRefusal,
} from './availability-schemas';
export * from './calendar-day';
export * from './cart-events';
export * from './catalogue-events';
export * from './company-bodies';
export * from './contact-form';
export * from './email-address';
export * from './envelope';
export * from './events';
export * from './failed-emails';
export * from './lifecycle';
export * from './money';
export * from './order-events';
export * from './order-stream';
export * from './outages';
export * from './password-rule';
export * from './product-images';
export * from './qbo-connect';
export * from './qbo-import';
export * from './qbo-session';
export * from './refusal';
export * from './roles';
export * from './summary-format';
export * from './sync-jobs';
export * from './views';
// availability.ts re-exports these as types (for browsers): here the schemas, as values, win.
export { ShortLine, SubRental } from './views';
