/** Span URLs keep no secret: the same redaction as the access log (http/log-redaction.ts). */
import { redactSpanUrls } from '../src/tracing/redaction';

function span(attributes: Record<string, string>) {
  return {
    attributes: { ...attributes } as Record<string, string>,
    setAttribute(key: string, value: string) {
      this.attributes[key] = value;
      return this as never;
    },
  };
}

it('redacts reset tokens, tickets and the QuickBooks return in every URL attribute', () => {
  const s = span({
    'url.path': '/reset/abc.def.ghi',
    'url.query': 'ticket=t0k3n&lastEventId=5',
    'url.full': 'http://127.0.0.1:4105/auth/accessToken?code=c0d3&state=s7a7e&realmId=9',
    'http.target': '/callback?code=c0d3&state=s7a7e',
  });
  redactSpanUrls(s);
  expect(s.attributes).toEqual({
    'url.path': '/reset/[redacted]',
    'url.query': 'ticket=[redacted]&lastEventId=5',
    'url.full': 'http://127.0.0.1:4105/auth/accessToken?code=[redacted]&state=[redacted]&realmId=9',
    'http.target': '/callback?code=[redacted]&state=[redacted]',
  });
});

it('leaves other URLs alone', () => {
  const s = span({ 'url.path': '/api/product', 'url.query': 'category=BARS&limit=20' });
  redactSpanUrls(s);
  expect(s.attributes).toEqual({ 'url.path': '/api/product', 'url.query': 'category=BARS&limit=20' });
});
