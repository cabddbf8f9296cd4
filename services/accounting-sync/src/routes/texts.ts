import { HttpError } from '@decor/kit';

/** Spec §8, accounting texts (shown to staff as they are). */
export const QBO_TEXTS = {
  sessionExpired: 'Your session with QuickBooks has expired, and the request was not completed!',
  renewed: 'Your session with QuickBooks has been renewed! Please try your previous request again.',
  renewFailed: 'There was an error renewing your token',
  signInFailed: 'The QuickBooks sign-in could not be verified. Please sign in again.',
} as const;

export const QBO_SESSION_EXPIRED_HEADER = 'qbo-session-expired';

/** 401 with the header the UI turns into the 'Click here' banner (not the site session's expiry). */
export const qboSessionExpired = (message: string = QBO_TEXTS.sessionExpired) =>
  new HttpError(401, message, { [QBO_SESSION_EXPIRED_HEADER]: 'true' });
