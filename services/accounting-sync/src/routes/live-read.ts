import { HttpError } from '@decor/kit';
import { QboFault } from '../qbo/client';
import { SessionExpired } from '../qbo/faults';
import { QBO_TEXTS, qboSessionExpired } from './texts';

/** How long a live read (categories, the import listing) may wait for QuickBooks. */
const LIVE_READ_MS = 12_000;

/**
 * A read that needs QuickBooks now: no session → the 401 the UI offers renewal for; QuickBooks down,
 * throttling past the limiter's waits, or not answering within LIVE_READ_MS → 503 with a message
 * (never a bare 500, never a hang past the browser's 15 s).
 */
export async function liveRead<T>(read: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HttpError(503, QBO_TEXTS.unavailable)), LIVE_READ_MS);
  });
  try {
    return await Promise.race([read(), timeout]);
  } catch (err) {
    if (err instanceof SessionExpired) throw qboSessionExpired();
    if (err instanceof QboFault && err.kind === 'auth') throw qboSessionExpired();
    if (err instanceof QboFault && (err.kind === 'server' || err.kind === 'throttle'))
      throw new HttpError(503, QBO_TEXTS.unavailable);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
