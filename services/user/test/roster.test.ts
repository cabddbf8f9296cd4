/**
 * The staff list's in-memory roster (store/user-roster.ts) never hides a change: a write on this
 * instance shows on its next list at once, a write on another instance within moments (user events).
 */
import { randomUUID } from 'node:crypto';
import { call, signIn, startUserService, stopAndClean, type UserServiceUnderTest } from './support';

let a: UserServiceUnderTest;
let b: UserServiceUnderTest;
let token = '';

beforeAll(async () => {
  // Two instances of the service on one database and one set of topics, as operators scale it.
  a = await startUserService();
  b = await startUserService();
  await Promise.all([a.ctx.rosterInvalidation.listening, b.ctx.rosterInvalidation.listening]);
  token = (await signIn(a.url, 'staff@decor.example', 'demo1234')).body.result.token;
});
afterAll(async () => {
  await b?.shutdown('test over');
  await stopAndClean(a);
});

const listed = async (url: string, query: string) => {
  const answer = await call(url, `/user?${query}`, { token });
  expect(answer.status).toBe(200);
  return {
    ids: answer.body.result.map((u: { id: string }) => u.id) as string[],
    total: answer.headers.get('total_count'),
  };
};

async function newCustomer(url: string, company: string) {
  const t = randomUUID().slice(0, 8);
  const co = await call(url, '/company', {
    method: 'POST',
    token,
    json: { name: `${company} ${t}`, street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
  });
  expect(co.status).toBe(201);
  const user = await call(url, '/user', {
    method: 'POST',
    token,
    json: {
      permissions: 'customer',
      CompanyId: co.body.result.id,
      ownCompany: `${company} ${t}`,
      email: `roster.${t}@example.com`,
      displayName: 'Rosa Ster',
      firstName: 'Rosa',
      lastName: 'Ster',
      phone: '512-555-0100',
    },
  });
  expect(user.status).toBe(201);
  return { id: user.body.result.id as string, prefix: `${company} ${t}`.toLowerCase() };
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('shows a customer created on the same instance on its very next list', async () => {
  const before = await listed(a.url, 'permissions=customer&order=ownCompany:ASC&limit=100');
  const { id, prefix } = await newCustomer(a.url, 'Aardvark Rentals');
  const after = await listed(a.url, 'permissions=customer&order=ownCompany:ASC&limit=100');
  expect(after.ids).toContain(id);
  expect(Number(after.total)).toBe(Number(before.total) + 1);
  expect((await listed(a.url, `like=ownCompany:${encodeURIComponent(prefix)}`)).ids).toEqual([id]);
});

it('shows a customer created, then suspended, on another instance within moments', async () => {
  await listed(a.url, 'permissions=customer&order=ownCompany:ASC'); // warm instance a's roster
  const { id, prefix } = await newCustomer(b.url, 'Abacus Events');
  const search = `like=ownCompany:${encodeURIComponent(prefix)}`;
  expect(
    (
      await eventually(
        () => listed(a.url, search),
        (l) => l.ids.length > 0,
      )
    ).ids,
  ).toEqual([id]);

  const suspended = await call(b.url, `/user/${id}`, { method: 'PUT', token, json: { active: false } });
  expect(suspended.status).toBe(200);
  const active = await eventually(
    () => listed(a.url, `${search}&active=true`),
    (l) => l.ids.length === 0,
  );
  expect(active.ids).toEqual([]);
  expect((await listed(a.url, `${search}&active=false`)).ids).toEqual([id]);
});
