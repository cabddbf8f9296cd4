import { Type } from '@sinclair/typebox';
import { createServiceApp, type ServiceApp } from '../src/http';
import { objectIdParam } from '../src/mongo';
import { call, listen } from './http-helpers';

/** A slice of the spec's estimate form, to check what a person reads when input is wrong. */
const EstimateBody = Type.Object(
  {
    email: Type.String({ format: 'email' }),
    groupName: Type.String({ minLength: 1 }),
    eventDate: Type.String({ format: 'date' }),
    guests: Type.Optional(Type.Integer({ minimum: 1 })),
    status: Type.Optional(Type.Union([Type.Literal('Pending'), Type.Literal('Approved')])),
    willCall: Type.Optional(Type.Object({ phone: Type.String() })),
  },
  { additionalProperties: false },
);

let app: ServiceApp;
let base: string;
const received: unknown[] = [];

beforeAll(async () => {
  app = await createServiceApp({ name: 'test', logLevel: 'silent' });
  app.post('/estimate', { schema: { body: EstimateBody } }, async (request) => {
    received.push(request.body);
    return { result: { id: 'e1' } };
  });
  // No additionalProperties here: objects are closed by default all the same.
  app.post('/open', { schema: { body: Type.Object({ email: Type.String() }) } }, async (request) => {
    received.push(request.body);
    return { result: request.body };
  });
  app.get(
    '/product',
    {
      schema: {
        querystring: Type.Object({ limit: Type.Integer({ maximum: 100 }), available: Type.Boolean() }),
      },
    },
    async (request) => ({ result: request.query }),
  );
  app.get('/product/:id', { schema: { params: objectIdParam } }, async (request) => ({
    id: request.params.id,
  }));
  base = await listen(app);
});
afterAll(() => app.close());
beforeEach(() => {
  received.length = 0;
});

const valid = { email: 'ana@example.com', groupName: 'Smith wedding', eventDate: '2027-06-12' };

async function post(body: unknown, url = '/estimate', contentType = 'application/json') {
  const res = await call(base, url, {
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: res.body };
}

test('a valid body reaches the handler unchanged', async () => {
  expect(await post(valid)).toEqual({ status: 200, body: { result: { id: 'e1' } } });
  expect(received).toEqual([valid]);
});

test.each([
  ['malformed JSON', '{"email": "ana@example.com",', 'Body is not valid JSON'],
  ['a wrong type', { ...valid, email: 42 }, 'email must be a string'],
  ['a number sent as text (bodies are not coerced)', { ...valid, guests: '12' }, 'guests must be an integer'],
  ['an unknown $ operator field', { ...valid, $where: 'sleep(1000)' }, "Unknown field '$where'"],
  ['an operator object in place of a value', { ...valid, email: { $ne: null } }, 'email must be a string'],
  ['a missing field', { email: 'ana@example.com', eventDate: '2027-06-12' }, 'groupName is required'],
  ['a bad date', { ...valid, eventDate: '2027-02-30' }, 'eventDate must be a date'],
  ['a bad email', { ...valid, email: 'ana' }, 'email must be a valid email address'],
  ['an empty string', { ...valid, groupName: '' }, 'groupName must not be empty'],
  [
    'a value outside a union of literals',
    { ...valid, status: 'Lost' },
    'status must be one of: Pending, Approved',
  ],
  ['a nested unknown field', { ...valid, willCall: { phone: '1', $gt: '' } }, "Unknown field 'willCall.$gt'"],
  ['a nested wrong type', { ...valid, willCall: { phone: 5 } }, 'willCall.phone must be a string'],
  ['an array instead of an object', [valid], 'Body must be an object'],
  [
    'a prototype-poisoning key',
    '{"__proto__": {"admin": true}, "email": "a@b.co"}',
    'Body is not valid JSON',
  ],
])('%s → 400 with a readable message, nothing reaches the handler', async (_case, body, message) => {
  expect(await post(body)).toEqual({ status: 400, body: { message } });
  expect(received).toEqual([]);
});

test('an empty JSON body and a missing body are 400 with a message', async () => {
  expect(await post('')).toEqual({
    status: 400,
    body: { message: 'Body is empty but the content type says JSON' },
  });
  const res = await call(base, '/estimate', { method: 'POST' });
  expect(res).toMatchObject({ status: 400, body: { message: 'Body is required' } });
});

test('objects without additionalProperties are closed too', async () => {
  expect(await post({ email: 'a@b.co', $where: '1' }, '/open')).toEqual({
    status: 400,
    body: { message: "Unknown field '$where'" },
  });
});

test('an unsupported content type is 415', async () => {
  const res = await post('email=a', '/estimate', 'application/x-www-form-urlencoded');
  expect(res).toEqual({
    status: 415,
    body: { message: "Unsupported content type 'application/x-www-form-urlencoded'" },
  });
});

test('query strings are coerced to the declared types and checked', async () => {
  const ok = await call(base, '/product?limit=5&available=true');
  expect(ok.body).toEqual({ result: { limit: 5, available: true } });
  const tooMany = await call(base, '/product?limit=500&available=true');
  expect(tooMany).toMatchObject({ status: 400, body: { message: 'limit must be at most 100' } });
  const notBool = await call(base, '/product?limit=5&available=maybe');
  expect(notBool).toMatchObject({ status: 400, body: { message: 'available must be true or false' } });
  const unknown = await call(base, '/product?limit=5&available=true&$where=1');
  expect(unknown).toMatchObject({ status: 400, body: { message: "Unknown query parameter '$where'" } });
});

test('a malformed id in the path is 400 Invalid id', async () => {
  const bad = await call(base, '/product/not-an-id');
  expect(bad).toMatchObject({ status: 400, body: { message: 'Invalid id' } });
  const good = await call(base, '/product/65a1f0c2e4b0a1b2c3d4e5f6');
  expect(good.body).toEqual({ id: '65a1f0c2e4b0a1b2c3d4e5f6' });
});
