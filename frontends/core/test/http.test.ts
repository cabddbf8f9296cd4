import { AxiosError } from 'axios';
import {
  API_BASE_URL,
  createHttpClient,
  FALLBACK_MESSAGE,
  http,
  NO_RESPONSE_MESSAGE,
  onQboSessionExpired,
  onSessionExpired,
  REQUEST_TIMEOUT_MS,
  TIMEOUT_MESSAGE,
  toApiError,
  totalCountOf,
} from '../src/http';
import { type ApiServer, startApiServer } from './support/api-server';

/** What GET /echo answers. */
type Echo = { result: { authorization: string | null; accounting: string[] } };

describe('the shared axios client (spec §7)', () => {
  let server: ApiServer;
  const client = createHttpClient();

  beforeAll(async () => {
    server = await startApiServer({
      'GET /echo': (req) => ({
        body: {
          result: {
            authorization: req.headers.authorization ?? null,
            accounting: ['access_token', 'realm_id', 'refresh_token'].filter((h) => h in req.headers),
          },
        },
        headers: {
          token: 'token-from-server',
          realm_id: 'realm-9',
          access_token: 'qbo-access',
          refresh_token: 'qbo-refresh',
          total_count: '42',
        },
      }),
      'GET /slow': () => ({ hang: true }),
      'GET /drop': () => ({ drop: true }),
      'GET /bad': () => ({ status: 400, body: { message: 'cartName must be at most 100 characters' } }),
      'GET /broken': () => ({ status: 502, body: '<html>Bad gateway</html>' }),
      'GET /expired': () => ({
        status: 401,
        body: { message: 'jwt expired' },
        headers: { expiredtoken: 'true' },
      }),
      'GET /forbidden': () => ({ status: 403, body: { message: 'Forbidden' } }),
      'GET /qbo-expired': () => ({
        status: 401,
        body: { message: 'The QuickBooks session has expired' },
        headers: { 'qbo-session-expired': 'true' },
      }),
      'GET /unauthorised': () => ({ status: 401, body: { message: 'Unauthorized' } }),
    });
    client.defaults.baseURL = server.apiUrl;
  });
  afterAll(() => server.close());
  afterEach(() => {
    onSessionExpired(null);
    onQboSessionExpired(null);
  });

  it('is configured with base URL /api and a 15 s timeout', () => {
    expect(API_BASE_URL).toBe('/api');
    expect(REQUEST_TIMEOUT_MS).toBe(15_000);
    expect(http.defaults.baseURL).toBe('/api');
    expect(http.defaults.timeout).toBe(15_000);
  });

  it('sends the session token as a Bearer header and never any QuickBooks token header', async () => {
    sessionStorage.setItem('token', 'abc.def.ghi');
    sessionStorage.setItem('realm_id', 'realm-1');
    sessionStorage.setItem('access_token', 'old-qbo-access');
    sessionStorage.setItem('refresh_token', 'old-qbo-refresh');
    const answer = await client.get<Echo>('/echo');
    expect(answer.data.result).toEqual({ authorization: 'Bearer abc.def.ghi', accounting: [] });
  });

  it('forgets QuickBooks tokens an older build left in session storage', () => {
    sessionStorage.setItem('token', 'abc.def.ghi');
    for (const name of ['access_token', 'realm_id', 'refresh_token']) sessionStorage.setItem(name, 'old');
    createHttpClient();
    expect(sessionStorage.getItem('token')).toBe('abc.def.ghi');
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(sessionStorage.getItem('realm_id')).toBeNull();
    expect(sessionStorage.getItem('refresh_token')).toBeNull();
  });

  it('sends no Authorization header without a session', async () => {
    const answer = await client.get<Echo>('/echo');
    expect(answer.data.result.authorization).toBeNull();
  });

  it('saves the token response header, and never realm_id, access_token or refresh_token', async () => {
    const answer = await client.get('/echo');
    expect(sessionStorage.getItem('token')).toBe('token-from-server');
    expect(sessionStorage.getItem('realm_id')).toBeNull();
    expect(sessionStorage.getItem('access_token')).toBeNull();
    expect(sessionStorage.getItem('refresh_token')).toBeNull();
    expect(sessionStorage.length).toBe(1);
    expect(totalCountOf(answer, 0)).toBe(42);
  });

  it('turns a timeout into 408 with the spec text', async () => {
    const quick = createHttpClient();
    quick.defaults.baseURL = server.apiUrl;
    quick.defaults.timeout = 200;
    await expect(quick.get('/slow')).rejects.toEqual({ status: 408, message: TIMEOUT_MESSAGE });
  });

  it('turns a request that got no response into 500 with the spec text', async () => {
    const silenced = jest.spyOn(console, 'error').mockImplementation(() => {}); // jsdom logs network errors
    // (A short timeout: jsdom keeps an errored request's timeout timer running until it fires.)
    await expect(client.get('/drop', { timeout: 500 })).rejects.toEqual({
      status: 500,
      message: NO_RESPONSE_MESSAGE,
    });
    silenced.mockRestore();
  });

  it("shows the error body's message, else 'An error occurred'", async () => {
    await expect(client.get('/bad')).rejects.toEqual({
      status: 400,
      message: 'cartName must be at most 100 characters',
    });
    await expect(client.get('/broken')).rejects.toEqual({ status: 502, message: FALLBACK_MESSAGE });
    await expect(client.get('/forbidden')).rejects.toEqual({ status: 403, message: 'Forbidden' });
  });

  it('treats the expiredtoken header as an expired session and tells the listener', async () => {
    const seen: unknown[] = [];
    onSessionExpired((error) => seen.push(error));
    await expect(client.get('/expired')).rejects.toEqual({
      status: 401,
      message: 'jwt expired',
      expired: true,
    });
    expect(seen).toEqual([{ status: 401, message: 'jwt expired', expired: true }]);
    await expect(client.get('/forbidden')).rejects.toMatchObject({ status: 403 });
    expect(seen).toHaveLength(1);
  });

  it('a 401 with qbo-session-expired: true is the QuickBooks connection, not the site session', async () => {
    const qbo: unknown[] = [];
    const site: unknown[] = [];
    onQboSessionExpired((error) => qbo.push(error));
    onSessionExpired((error) => site.push(error));
    sessionStorage.setItem('token', 'abc.def.ghi');
    const refusal = { status: 401, message: 'The QuickBooks session has expired', qboSessionExpired: true };
    await expect(client.get('/qbo-expired')).rejects.toEqual(refusal);
    expect(qbo).toEqual([refusal]);
    await expect(client.get('/unauthorised')).rejects.toEqual({ status: 401, message: 'Unauthorized' });
    expect(qbo).toHaveLength(1);
    expect(site).toEqual([]);
    expect(sessionStorage.getItem('token')).toBe('abc.def.ghi');
  });

  it('normalises axios errors without a network as well', () => {
    expect(toApiError(new AxiosError('timeout of 15000ms exceeded', 'ECONNABORTED'))).toEqual({
      status: 408,
      message: TIMEOUT_MESSAGE,
    });
    expect(toApiError(new AxiosError('Network Error', 'ERR_NETWORK'))).toEqual({
      status: 500,
      message: NO_RESPONSE_MESSAGE,
    });
    expect(toApiError(new Error('boom'))).toEqual({ status: 500, message: NO_RESPONSE_MESSAGE });
  });
});
