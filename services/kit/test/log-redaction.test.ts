import { Writable } from 'node:stream';
import pino from 'pino';
import { createServiceApp, redactSecretPaths, type ServiceApp } from '../src/http';
import { call, listen } from './http-helpers';

/** The access log keeps no secret a URL carries (issue 28): one function, every process's logger. */
describe('redactSecretPaths', () => {
  it.each([
    ['/reset/eyJ.abc.def', '/reset/[redacted]'],
    ['/reset/eyJ.abc.def?x=1', '/reset/[redacted]?x=1'],
    [
      '/callback?code=AB12&state=s.t.u&realmId=9130350',
      '/callback?code=[redacted]&state=[redacted]&realmId=9130350',
    ],
    [
      '/api/auth/accessToken?realmId=1&state=s&code=c#x',
      '/api/auth/accessToken?realmId=1&state=[redacted]&code=[redacted]#x',
    ],
    [
      '/api/orders/events?ticket=t.k.n&lastEventId=1-2',
      '/api/orders/events?ticket=[redacted]&lastEventId=1-2',
    ],
    ['/x?co%64e=c&TICKET=t&ticket', '/x?co%64e=[redacted]&TICKET=[redacted]&ticket=[redacted]'],
    ['/api/product?limit=20&order=name:ASC', '/api/product?limit=20&order=name:ASC'],
    ['/api/product?%E0%A4%A=1', '/api/product?%E0%A4%A=1'],
  ])('%s → %s', (url, logged) => {
    expect(redactSecretPaths(url)).toBe(logged);
  });
});

describe("a service's access log (a logger passed in, as startService does)", () => {
  // biome-ignore lint/suspicious/noExplicitAny: log lines are read loosely
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  let app: ServiceApp;
  let base: string;
  beforeAll(async () => {
    app = await createServiceApp({ name: 'redaction-test', logger: pino({ level: 'info' }, sink) });
    base = await listen(app);
  });
  afterAll(() => app.close());

  it('logs the request with its secrets replaced', async () => {
    await call(base, '/auth/accessToken?code=SECRETcode&state=SECRETstate&realmId=1');
    const logged = lines.filter((l) => l.msg === 'incoming request').map((l) => l.req.url);
    expect(logged).toContain('/auth/accessToken?code=[redacted]&state=[redacted]&realmId=1');
    expect(JSON.stringify(lines)).not.toContain('SECRET');
  });
});
