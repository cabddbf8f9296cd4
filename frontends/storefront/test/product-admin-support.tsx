/**
 * What the product-admin tests share: the inventory rendered as staff in a MemoryRouter with the real
 * store, a real local API server (core's test support) and a real local "S3" the browser PUTs files to.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppStore, createAppStore, fetchCategories, http, signedIn } from '@decor/web-core';
import { MemoryRouter, Route, Routes, useLocation } from '@decor/web-core/router';
import { type ApiServer, demoUser, type Handler, startApiServer } from '@decor/web-core/testing';
import { act, fireEvent, render } from '@testing-library/react';
import { Provider } from 'react-redux';
import Inventory from '../src/inventory';

export const CATEGORIES = {
  result: {
    categories: [
      { Id: '10', Name: 'BARS' },
      { Id: '40', Name: 'LIGHTING' },
    ],
    subcategories: [
      { Id: '11', Name: 'Bar Front', ParentRef: { value: '10' } },
      { Id: '12', Name: 'Back Bar', ParentRef: { value: '10' } },
      { Id: '41', Name: 'Candles', ParentRef: { value: '40' } },
    ],
  },
};

export const image = (id: string, primary = false) => ({
  id,
  url: `http://images.test/${id}.png`,
  primary,
  type: 'image/png',
});

export const product = (over: Record<string, unknown> = {}) => ({
  id: 'BAR-1',
  name: 'Mirrored Bar Front',
  description: 'A mirrored bar front, for rent',
  category: 'BARS',
  subcategory: 'Bar Front',
  price: 150,
  quantity: 4,
  qboId: '31',
  syncToken: '0',
  Images: [],
  ...over,
});

/** A file of `size` bytes as the browser's picker gives it. */
export const file = (name: string, size: number, type = 'image/png') =>
  new File([new Uint8Array(size)], name, { type });

export interface StoredPut {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  /** A presigned POST's form fields (multipart), in the order sent; the file's part is `file`. */
  fields: [string, string][];
  /** The `file` part: its content type and size. */
  file?: { type: string; bytes: number };
}

/** The parts of a multipart/form-data body: plain fields as text, the file part's type and size. */
function multipart(body: Buffer, contentType: string | undefined): Pick<StoredPut, 'fields' | 'file'> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType ?? '');
  if (!boundary) return { fields: [] };
  const fields: [string, string][] = [];
  let file: StoredPut['file'];
  const text = body.toString('latin1');
  for (const part of text.split(`--${boundary[1] ?? boundary[2]}`).slice(1, -1)) {
    const [head = '', ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const value = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    if (/filename=/.test(head)) {
      file = {
        type: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '',
        bytes: Buffer.byteLength(value, 'latin1'),
      };
      fields.push([name, '(file)']);
    } else fields.push([name, value]);
  }
  return { fields, file };
}

export interface FakeS3 {
  url: string;
  puts: StoredPut[];
  /** While set, uploads get no answer until `release()`. */
  hold: boolean;
  release(): void;
  close(): Promise<void>;
}

/** A storage host like S3 taking presigned POST forms: CORS for POST, records what arrives. */
export async function startFakeS3(): Promise<FakeS3> {
  const held: (() => void)[] = [];
  const state = { hold: false };
  const puts: StoredPut[] = [];
  const server = createServer((req, res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'POST');
      res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? '');
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const form = multipart(body, req.headers['content-type']);
      puts.push({
        method: req.method ?? '',
        url: req.url ?? '/',
        headers: req.headers,
        bytes: body.length,
        ...form,
      });
      // S3 answers a form upload 204 No Content.
      const answer = () => res.writeHead(204).end();
      if (state.hold) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    puts,
    get hold() {
      return state.hold;
    },
    set hold(value: boolean) {
      state.hold = value;
    },
    release: () => {
      state.hold = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function startServers(routes: Record<string, Handler>): Promise<{ api: ApiServer; s3: FakeS3 }> {
  const api = await startApiServer({
    'GET /categories': () => ({ body: CATEGORIES }),
    // The product form shows the category's own turnaround (issue 15): none set unless a test says so.
    ...Object.fromEntries(
      CATEGORIES.result.categories.map((c) => [
        `GET /categories/${c.Id}/turnaround`,
        () => ({ body: { result: { Id: c.Id, Name: c.Name, before: null, after: null } } }),
      ]),
    ),
    ...routes,
  });
  const s3 = await startFakeS3();
  http.defaults.baseURL = api.apiUrl;
  return { api, s3 };
}

export async function stopServers(servers: { api: ApiServer; s3: FakeS3 }): Promise<void> {
  http.defaults.baseURL = '/api';
  await servers.api.close();
  await servers.s3.close();
}

function Where() {
  return <output aria-label="location">{decodeURI(useLocation().pathname)}</output>;
}

/** The inventory at `path` for a signed-in user with `permissions` (staff by default). */
export async function renderInventory(path: string, permissions = 'admin'): Promise<AppStore> {
  const store = createAppStore();
  sessionStorage.setItem('token', 'jwt');
  store.dispatch(signedIn({ user: { ...demoUser, permissions }, token: 'jwt' }));
  await store.dispatch(fetchCategories());
  // The staff's dialogs are React.lazy chunks: let their import settle inside act, as a browser would.
  await act(async () => {
    render(
      <Provider store={store}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/inventory/*" element={<Inventory />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </Provider>,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
  return store;
}

/** The requests of `method path` the API server got, bodies included. */
export const requestsTo = (api: ApiServer, method: string, path: string) =>
  api.requests.filter((r) => r.method === method && r.url.split('?')[0] === `/api${path}`);

/** Types `value` into a text field or number field at once (antd's inputs on jsdom are slow to type into). */
export function fill(field: HTMLElement, value: string): void {
  fireEvent.change(field, { target: { value } });
}
