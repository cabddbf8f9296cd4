import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, serviceEnv } from '@decor/kit/testing';
import type { RunningProcess } from '@decor/stack';
import { spawnProcess } from './support/processes';

/**
 * A body over the limit is answered 413 with a `message`, and the connection closed only once the
 * answer is out: a client still writing its body must read the answer, not a reset (EPIPE/ECONNRESET).
 */
let gateway: RunningProcess;
let base: URL;

beforeAll(async () => {
  const port = String(await freePort());
  gateway = await spawnProcess({
    name: 'gateway',
    entry: 'gateway/src/main.ts',
    env: {
      ...(await serviceEnv('user')),
      PORT: port,
      GATEWAY_CACHE_TTL_MS: '0',
      ORDER_STREAM_MAX_STREAMS: '0',
    },
    readyUrl: `http://127.0.0.1:${port}/healthz`,
    logFile: path.join(mkdtempSync(path.join(tmpdir(), 'decor-oversized-')), 'gateway.log'),
  });
  base = new URL(`http://127.0.0.1:${port}`);
}, 180_000);
afterAll(() => gateway?.stop());

/** Streams `size` bytes to `path` in 64 KB writes, as a Node client does; the answer, or the error it met. */
function post(path: string, size: number, opts: { chunked?: boolean } = {}) {
  return new Promise<{ status: number; text: string; headers: http.IncomingHttpHeaders } | { error: string }>(
    (resolve) => {
      const req = http.request({
        hostname: base.hostname,
        port: base.port,
        path,
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          ...(opts.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(size) }),
        },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        res.on('error', (err) => resolve({ error: `response: ${err.message}` }));
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (!answered) resolve({ error: err.code ?? err.message });
      });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const next = () => {
        while (sent < size) {
          const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
          sent += piece.length;
          if (!req.write(piece)) {
            req.once('drain', next);
            return;
          }
        }
        req.end();
      };
      next();
    },
  );
}

const SIZE = Math.round(1.2 * 1024 * 1024);
const TOO_LARGE = { message: 'The request body is larger than 1024 KB' };

describe('a 1.2 MB body is always answered 413, never met by a reset connection', () => {
  it.each([
    ['with a Content-Length', false],
    ['chunked', true],
  ])(
    'POST /api/categories %s, 30 times',
    async (_how, chunked) => {
      const seen: unknown[] = [];
      for (let i = 0; i < 30; i++) {
        const res = await post('/api/categories', SIZE, { chunked });
        seen.push(
          'error' in res
            ? res
            : { status: res.status, body: JSON.parse(res.text), connection: res.headers.connection },
        );
      }
      expect(seen).toEqual(Array(30).fill({ status: 413, body: TOO_LARGE, connection: 'close' }));
    },
    60_000,
  );
});
