/**
 * The one HTTP client of the product (spec §7), created once in the shell's bundle and shared with
 * every remote through module federation (@decor/web-core is a singleton). It is axios, whose code
 * is loaded with the first request (issue 31): a visitor's page hydrates without it, and its first
 * call (the categories) comes after the page is interactive.
 */

import { QBO_SESSION_EXPIRED_HEADER, type ShortLine } from '@decor/contracts/rules';
import type { AxiosError, AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';

export const API_BASE_URL = '/api';
export const REQUEST_TIMEOUT_MS = 15_000;

export const TIMEOUT_MESSAGE = 'The server did not respond and the request timed out';
export const NO_RESPONSE_MESSAGE = 'An error occurred during the request';
export const FALLBACK_MESSAGE = 'An error occurred';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

/** Session storage key of the session token (the `token` response header is saved under it). */
export const TOKEN_KEY = 'token';
export const SAVED_HEADERS = ['token'] as const;
/**
 * The QuickBooks tokens stay on the server: the client neither sends nor stores these any more, and
 * forgets a copy an older build may have left in session storage.
 */
export const RETIRED_HEADERS = ['access_token', 'realm_id', 'refresh_token'] as const;

/** Every failed call is normalised to this shape before a screen sees it. */
export interface ApiError {
  status: number;
  message: string;
  /** The server said the session token has expired (header `expiredtoken: true`). */
  expired?: boolean;
  /**
   * The QuickBooks connection needs renewal (401 with header `qbo-session-expired: true`); the site
   * session is still good.
   */
  qboSessionExpired?: boolean;
  /** A booking that does not fit (409): every short line, as the server decided (issue 15). */
  shortLines?: ShortLine[];
}

export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiError).status === 'number' &&
    typeof (value as ApiError).message === 'string'
  );
}

function headerValue(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  const getter = (headers as { get?: (n: string) => unknown }).get;
  const value =
    typeof getter === 'function'
      ? getter.call(headers, name)
      : ((headers as Record<string, unknown>)[name] ??
        (headers as Record<string, unknown>)[name.toLowerCase()]);
  if (value === undefined || value === null || value === '') return undefined;
  return String(value);
}

/** Response header of a 401 that is about the QuickBooks connection, not the site session. */
export { QBO_SESSION_EXPIRED_HEADER };

/** axios's own test (`axios.isAxiosError`), without its code. */
function isAxiosError(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as AxiosError).isAxiosError === true;
}

/** Spec §7 client-side normalisation. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error) && !isAxiosError(error)) return error;
  const err = error as AxiosError<{ message?: unknown; shortLines?: unknown }>;
  if (err?.code === 'ECONNABORTED' || err?.code === 'ETIMEDOUT') {
    return { status: 408, message: TIMEOUT_MESSAGE };
  }
  const response = err?.response;
  if (!response) return { status: 500, message: NO_RESPONSE_MESSAGE };
  const body = response.data;
  const message =
    body && typeof body === 'object' && typeof body.message === 'string' && body.message !== ''
      ? body.message
      : FALLBACK_MESSAGE;
  const expired = headerValue(response.headers, 'expiredtoken') === 'true';
  const qboSessionExpired =
    response.status === 401 && headerValue(response.headers, QBO_SESSION_EXPIRED_HEADER) === 'true';
  return {
    status: response.status,
    message,
    ...(expired ? { expired: true } : {}),
    ...(qboSessionExpired ? { qboSessionExpired: true } : {}),
    ...(Array.isArray(body?.shortLines) ? { shortLines: body.shortLines as ShortLine[] } : {}),
  };
}

/** The session token the server hands out in the `token` response header, kept in session storage. */
export function saveSessionHeaders(response: Pick<AxiosResponse, 'headers'>): void {
  for (const name of SAVED_HEADERS) {
    const value = headerValue(response.headers, name);
    if (value !== undefined) sessionStorage.setItem(name, value);
  }
}

export function storedToken(): string | null {
  // No session storage on the server, where public pages are rendered for visitors.
  if (typeof sessionStorage === 'undefined') return null;
  return sessionStorage.getItem(TOKEN_KEY);
}

/** Lazy lists: the total number of rows comes in the total_count header. */
export function totalCountOf(response: Pick<AxiosResponse, 'headers'>, fallback: number): number {
  const raw = headerValue(response.headers, 'total_count');
  const total = raw === undefined ? Number.NaN : Number(raw);
  return Number.isFinite(total) ? total : fallback;
}

type ExpiredListener = (error: ApiError) => void;
let onExpired: ExpiredListener | null = null;

/** The store registers what an expired session does (sign out and explain). */
export function onSessionExpired(listener: ExpiredListener | null): void {
  onExpired = listener;
}

let onQboExpired: ExpiredListener | null = null;

/** The store registers what an expired QuickBooks connection does (the renewal banner; no sign-out). */
export function onQboSessionExpired(listener: ExpiredListener | null): void {
  onQboExpired = listener;
}

/** What every request starts from; a test points `baseURL` at its server, the server renderer sets `adapter`. */
export interface HttpDefaults {
  baseURL: string;
  timeout: number;
  adapter?: AxiosRequestConfig['adapter'];
}

/** axios's request methods (its instance, and its code, created by the first call). */
export interface HttpClient {
  defaults: HttpDefaults;
  request<T = unknown>(config: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  get<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  delete<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  head<T = unknown>(url: string, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  post<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  put<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
  patch<T = unknown>(url: string, data?: unknown, config?: AxiosRequestConfig): Promise<AxiosResponse<T>>;
}

export function createHttpClient(): HttpClient {
  const defaults: HttpDefaults = { baseURL: API_BASE_URL, timeout: REQUEST_TIMEOUT_MS };
  if (typeof sessionStorage !== 'undefined') {
    for (const name of RETIRED_HEADERS) sessionStorage.removeItem(name);
  }
  let instance: Promise<AxiosInstance> | undefined;
  const client = (): Promise<AxiosInstance> => {
    instance ??= import('axios').then(({ default: axios }) => {
      const created = axios.create({ headers: { 'Content-Type': 'application/json' } });
      created.interceptors.request.use((config) => {
        const token = storedToken();
        if (token) config.headers.set('Authorization', `Bearer ${token}`);
        return config;
      });
      created.interceptors.response.use(
        (response) => {
          saveSessionHeaders(response);
          return response;
        },
        (error: unknown) => {
          const apiError = toApiError(error);
          if (apiError.expired) onExpired?.(apiError);
          if (apiError.qboSessionExpired) onQboExpired?.(apiError);
          return Promise.reject(apiError);
        },
      );
      return created;
    });
    // Its chunk did not arrive: the request fails as with no answer, the next one tries again.
    return instance.catch((error: unknown) => {
      instance = undefined;
      return Promise.reject(toApiError(error));
    });
  };
  // Function declarations: the frontends' build reads every file as TSX, where `<T>(` is JSX.
  async function request<T>(config: AxiosRequestConfig): Promise<AxiosResponse<T>> {
    const { baseURL, timeout, adapter } = defaults;
    const axios = await client();
    return axios.request<T>({ baseURL, timeout, ...(adapter ? { adapter } : {}), ...config });
  }
  const withoutBody = (method: string) =>
    function send<T>(url: string, config?: AxiosRequestConfig) {
      return request<T>({ ...config, method, url });
    };
  const withBody = (method: string) =>
    function send<T>(url: string, data?: unknown, config?: AxiosRequestConfig) {
      return request<T>({ ...config, method, url, data });
    };
  return {
    defaults,
    request,
    get: withoutBody('get'),
    delete: withoutBody('delete'),
    head: withoutBody('head'),
    post: withBody('post'),
    put: withBody('put'),
    patch: withBody('patch'),
  };
}

export const http = createHttpClient();
