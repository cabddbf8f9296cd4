import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import { redactSecretPaths } from '../http/log-redaction';

/** The attributes an HTTP span keeps its URL in (current and older semantic conventions). */
const URL_ATTRIBUTES = ['url.full', 'url.path', 'http.target', 'http.url'];

/**
 * A span's URL attributes, as the access log keeps URLs (`redactSecretPaths`): a reset link's token,
 * the QuickBooks return's `code`/`state` and a stream `ticket` never reach a trace viewer, which staff
 * and operators read (the HTTP instrumentation redacts only cloud signatures). Run first, on start,
 * while the span can still be changed: the instrumentations set the URL when they start a span.
 */
export class SecretRedactingProcessor implements SpanProcessor {
  onStart(span: Span, _parent: Context): void {
    redactSpanUrls(span);
  }
  onEnd(_span: ReadableSpan): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Rewrites `span`'s URL attributes that carry a secret. */
export function redactSpanUrls(span: Pick<Span, 'attributes' | 'setAttribute'>): void {
  for (const key of URL_ATTRIBUTES) {
    const value = span.attributes[key];
    if (typeof value !== 'string') continue;
    const redacted = redactSecretPaths(value);
    if (redacted !== value) span.setAttribute(key, redacted);
  }
  const query = span.attributes['url.query'];
  if (typeof query === 'string') {
    const redacted = redactSecretPaths(`?${query}`).slice(1);
    if (redacted !== query) span.setAttribute('url.query', redacted);
  }
}
