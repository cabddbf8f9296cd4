/**
 * The QuickBooks session as the API tells it to the UI (spec orders §8), shared by accounting-sync
 * (which answers with these) and the frontends (which show them). No TypeBox: the frontends import it.
 */
export const QBO_SESSION_EXPIRED_HEADER = 'qbo-session-expired';

export const QBO_SESSION_TEXTS = {
  expired: 'Your session with QuickBooks has expired, and the request was not completed!',
  renewed: 'Your session with QuickBooks has been renewed! Please try your previous request again.',
  renewFailed: 'There was an error renewing your token',
} as const;
