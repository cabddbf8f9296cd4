import { eventually } from '@decor/kit/testing';
import { type Stack, startStack } from '../src/stack';

let stack: Stack;
let api: string;

beforeAll(async () => {
  stack = await startStack({ notification: false });
  api = `${stack.gatewayUrl}/api`;
});
afterAll(() => stack.stop());

const postRaw = (path: string, body: string) =>
  fetch(`${api}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

/** Nothing a refused request sent may have reached the database: no reset was stored, no event queued. */
async function nothingWritten(): Promise<void> {
  const touched = await stack.user.ctx.users.countDocuments({
    $or: [{ passwordReset: { $ne: null } }, { 'outbox.0': { $exists: true } }],
  });
  expect(touched).toBe(0);
}

describe('bad input is refused with 400 and a readable message', () => {
  // Demo users seeded and their UserCreated events relayed, so any outbox entry later is a refused request's.
  beforeAll(() =>
    eventually(async () => {
      const { users } = stack.user.ctx;
      const seeded = (await users.countDocuments()) > 0;
      return seeded && (await users.countDocuments({ 'outbox.0': { $exists: true } })) === 0
        ? true
        : undefined;
    }),
  );

  it('malformed JSON', async () => {
    const res = await postRaw('/send/reset', '{"email": "customer@decor.example"');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/JSON/);
    await nothingWritten();
  });

  it('a wrong type', async () => {
    const res = await postRaw(
      '/auth/user',
      JSON.stringify({ email: 'customer@decor.example', password: 1234 }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'password must be a string' });
  });

  it('an operator object where a value belongs (NoSQL injection)', async () => {
    const res = await postRaw('/send/reset', JSON.stringify({ email: { $ne: null } }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^email must be/);
    await nothingWritten();
  });

  it('an unknown field carrying a $ operator', async () => {
    const res = await postRaw(
      '/send/reset',
      JSON.stringify({ email: 'customer@decor.example', $where: 'sleep(1000)' }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/\$where/);
    await nothingWritten();
  });

  it('a missing field, and a body that is not an e-mail', async () => {
    const missing = await postRaw('/auth/user', JSON.stringify({ email: 'customer@decor.example' }));
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/password/);
    const notEmail = await postRaw('/send/reset', JSON.stringify({ email: 'not an address' }));
    expect(notEmail.status).toBe(400);
    expect(((await notEmail.json()) as { message: string }).message).toMatch(/^email /);
    await nothingWritten();
  });

  it('a body over the size limit', async () => {
    const res = await postRaw('/send/reset', JSON.stringify({ email: `${'a'.repeat(2_000_000)}@x.io` }));
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toMatch(/larger than/);
  });
});
