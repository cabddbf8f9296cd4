/**
 * Errors a handler may throw on purpose. The error handler answers `{ message }` with `status`,
 * so the spec's clients show the message as is; `headers` are added to that response
 * (e.g. `expiredtoken: true` for an expired session).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.headers = headers;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required', headers?: Record<string, string>) =>
  new HttpError(401, message, headers);
export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const serviceUnavailable = (message: string) => new HttpError(503, message);
