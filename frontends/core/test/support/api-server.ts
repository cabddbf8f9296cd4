/**
 * A real HTTP server for the frontend unit tests: jsdom's XMLHttpRequest (axios' browser adapter)
 * talks to it over the network, CORS included, as a browser would talk to the gateway.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export { installIntersectionObserver } from './intersection-observer';

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface Reply {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Never answer (to see the client's timeout). */
  hang?: boolean;
  /** Close the connection without an answer. */
  drop?: boolean;
}

export type Handler = (request: Recorded) => Reply | Promise<Reply>;

export interface ApiServer {
  /** e.g. http://127.0.0.1:43210/api */
  apiUrl: string;
  requests: Recorded[];
  /** `METHOD /path` (without /api and query) → handler. */
  routes: Map<string, Handler>;
  close(): Promise<void>;
}

const EXPOSED =
  'token, realm_id, access_token, refresh_token, total_count, expiredtoken, qbo-session-expired';

export async function startApiServer(routes: Record<string, Handler> = {}): Promise<ApiServer> {
  const table = new Map(Object.entries(routes));
  const requests: Recorded[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
      res.writeHead(204).end();
      return;
    }
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on('end', async () => {
      const url = req.url ?? '/';
      const recorded: Recorded = {
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(recorded);
      const key = `${recorded.method} ${url.split('?')[0]?.replace(/^\/api/, '')}`;
      const handler = table.get(key);
      const reply: Reply = handler
        ? await handler(recorded)
        : { status: 404, body: { message: 'Not found' } };
      if (reply.drop) {
        req.socket.destroy();
        return;
      }
      if (reply.hang) {
        hanging.add(res);
        return;
      }
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      const isJson = typeof reply.body !== 'string';
      res.setHeader('content-type', isJson ? 'application/json' : 'text/plain');
      res.writeHead(reply.status ?? 200).end(isJson ? JSON.stringify(reply.body ?? null) : reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/api`,
    requests,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const demoUser = {
  id: '64b7f0c2a1b2c3d4e5f60718',
  firstName: 'Casey',
  lastName: 'Customer',
  displayName: 'Casey Customer',
  email: 'customer@decor.example',
  phone: null,
  permissions: 'customer',
  active: true,
  ownCompany: 'Evergreen Weddings',
  CompanyId: 'c1',
  qboId: null,
  cart: { id: 'cart-1', cartName: 'Spring gala', cartTotal: 120.5 },
};
