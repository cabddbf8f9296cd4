import { FALLBACK_MESSAGE, isApiError } from '@decor/web-core';
import { dayjs } from '@decor/web-core/ui-data';

export const SYNC_TEXTS = {
  title: 'QuickBooks sync',
  connection: 'Connection',
  connectedTo: (companyName: string | null) =>
    companyName ? `Connected to ${companyName}` : 'Connected to QuickBooks',
  notConnected: 'Not connected to QuickBooks',
  realmId: (realmId: string) => `Realm ID ${realmId}`,
  tokenValidUntil: (time: string) => `Access token valid until ${time}`,
  connect: 'Connect',
  renew: 'Renew',
  queues: 'Queues',
  failedJobs: 'Failed jobs',
  noFailedJobs: 'No failed jobs',
  retry: 'Retry',
  deadLetters: 'Dead-lettered events',
  noDeadLetters: 'No dead-lettered events',
  replay: 'Replay',
  queueDashboard: 'Queue dashboard',
  queueDashboardFailed: 'The queue dashboard could not be opened',
} as const;

/** A time from the server, in the viewer's time zone; '—' when there is none. */
export function formatWhen(iso: string | null | undefined): string {
  if (!iso) return '—';
  const when = dayjs(iso);
  return when.isValid() ? when.format('MMM D, YYYY h:mm:ss A') : iso;
}

/** The error body's message (already normalised by the client), else the generic text. */
export function errorText(error: unknown): string {
  return isApiError(error) ? error.message : FALLBACK_MESSAGE;
}
