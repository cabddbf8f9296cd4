/**
 * What a failed QuickBooks call means for the job that made it (QUICKBOOKS-NOTES §2, §6): node-quickbooks
 * hands back an AxiosError for non-2xx answers, the body itself for a 200 carrying a Fault, and a
 * plain error when nothing answered.
 */
export type FaultKind = 'auth' | 'throttle' | 'server' | 'stale' | 'duplicate' | 'validation';

export class QboFault extends Error {
  constructor(
    readonly kind: FaultKind,
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'QboFault';
  }
}

/** No valid QuickBooks session: jobs wait for staff to reconnect (never failed, never lost). */
export class SessionExpired extends Error {
  constructor(reason: string) {
    super(`No valid QuickBooks session (${reason})`);
    this.name = 'SessionExpired';
  }
}

interface FaultError {
  Message?: string;
  message?: string;
  Detail?: string;
  detail?: string;
  code?: string;
}

function faultOf(body: unknown): { errors: FaultError[]; type?: string } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, { Error?: FaultError[]; error?: FaultError[]; type?: string }>;
  const fault = b.Fault ?? b.fault;
  if (!fault) return undefined;
  return { errors: fault.Error ?? fault.error ?? [], type: fault.type };
}

export function classifyFault(err: unknown): QboFault {
  if (err instanceof QboFault) return err;
  const e = err as {
    response?: { status?: number; data?: unknown; headers?: Record<string, unknown> };
    message?: string;
    code?: string;
  };
  const status = e.response?.status ?? (faultOf(err) ? 400 : 0);
  const fault = faultOf(e.response?.data ?? err);
  const first = fault?.errors[0];
  const code = first?.code ?? null;
  const text = first
    ? [first.Message ?? first.message, first.Detail ?? first.detail].filter(Boolean).join(': ')
    : (e.message ?? 'no answer from QuickBooks');
  if (status === 0)
    return new QboFault('server', 0, null, `QuickBooks did not answer: ${e.code ?? e.message}`);
  if (status === 401) return new QboFault('auth', status, code, text);
  if (status === 429 || code === '3001') {
    const retryAfter = Number(e.response?.headers?.['retry-after']);
    return new QboFault(
      'throttle',
      429,
      code,
      text,
      Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined,
    );
  }
  if (status >= 500) return new QboFault('server', status, code, text);
  if (code === '5010') return new QboFault('stale', status, code, text);
  if (code === '6240') return new QboFault('duplicate', status, code, text);
  return new QboFault('validation', status, code, text);
}
