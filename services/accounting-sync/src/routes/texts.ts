import { QBO_SESSION_EXPIRED_HEADER, QBO_SESSION_TEXTS } from '@decor/contracts';
import { HttpError } from '@decor/kit';

/** Spec §8, accounting texts (shown to staff as they are). */
export const QBO_TEXTS = {
  sessionExpired: QBO_SESSION_TEXTS.expired,
  renewed: QBO_SESSION_TEXTS.renewed,
  renewFailed: QBO_SESSION_TEXTS.renewFailed,
  signInFailed: 'The QuickBooks sign-in could not be verified. Please sign in again.',
  /**
   * Not in the spec: an admin's sign-in to a company other than the one on record (connected or
   * lost) would point every later sync at it; only a superadmin may switch companies.
   */
  otherCompany:
    'QuickBooks is connected to another company. Only a superadmin can connect a different company.',
  /** Not in the spec: a live read (categories, the import listing) while QuickBooks is down or slow. */
  unavailable: 'QuickBooks is not answering right now. Please try again in a minute.',
} as const;

/** 401 with the header the UI turns into the 'Click here' banner (not the site session's expiry). */
export const qboSessionExpired = (message: string = QBO_TEXTS.sessionExpired) =>
  new HttpError(401, message, { [QBO_SESSION_EXPIRED_HEADER]: 'true' });
