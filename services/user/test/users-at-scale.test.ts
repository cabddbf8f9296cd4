/**
 * The staff lists with 10,000 users and 1,000 companies (issue 10): prefix search, company order and
 * paging answer right (total_count, no row twice across pages) and fast. The lists' queries run on
 * the lower-case key indexes (src/store/user-model.ts, company-model.ts); the figures are printed.
 */
import { Types } from 'mongoose';
import { call, signIn, startUserService, stopAndClean, type UserServiceUnderTest } from './support';

jest.setTimeout(240_000);

const COMPANIES = 1_000;
const USERS = 10_000;
let service: UserServiceUnderTest;
let base: string;
let token: string;

const companyName = (i: number) => `Company ${String(i).padStart(4, '0')}`;

beforeAll(async () => {
  service = await startUserService();
  base = service.url;
  token = (await signIn(base, 'staff@decor.example', 'demo1234')).body.result.token;
  const now = new Date();
  const companies = Array.from({ length: COMPANIES }, (_, i) => {
    const name = companyName(i);
    return {
      _id: new Types.ObjectId(),
      name,
      displayName: name,
      nameKey: name.toLowerCase(),
      displayNameKey: name.toLowerCase(),
      street: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      revision: 1,
      deletedAt: null,
      deleting: null,
      outbox: [],
      createdAt: now,
      updatedAt: now,
    };
  });
  for (let i = 0; i < companies.length; i += 500)
    await service.ctx.companies.collection.insertMany(companies.slice(i, i + 500));
  // Ten customers per company, stored as the service stores them (keys included, no outbox).
  const users = Array.from({ length: USERS }, (_, i) => {
    const company = companies[i % COMPANIES] as (typeof companies)[number];
    const displayName = `Guest ${i}`;
    return {
      _id: new Types.ObjectId(),
      firstName: 'Guest',
      lastName: String(i),
      displayName,
      displayNameKey: displayName.toLowerCase(),
      email: `guest${i}@scale.example`,
      permissions: 'customer',
      active: true,
      ownCompany: company.name,
      ownCompanyKey: company.name.toLowerCase(),
      CompanyId: company._id.toString(),
      revision: 1,
      deletedAt: null,
      outbox: [],
      createdAt: new Date(now.getTime() + i),
      updatedAt: now,
    };
  });
  for (let i = 0; i < users.length; i += 1_000)
    await service.ctx.users.collection.insertMany(users.slice(i, i + 1_000));
});
afterAll(() => stopAndClean(service));

async function timed(path: string, runs = 30) {
  const ms: number[] = [];
  let last = await call(base, path, { token });
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    last = await call(base, path, { token });
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const p = (q: number) => Math.round(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))] as number);
  return { answer: last, p50: p(0.5), p95: p(0.95) };
}

it('searches customers by company prefix, in company order, with the right total', async () => {
  const search = await timed(
    '/user?permissions=customer&like=ownCompany:company 012&order=ownCompany:ASC&limit=20',
  );
  expect(search.answer.status).toBe(200);
  // Companies 0120..0129: ten each.
  expect(search.answer.headers.get('total_count')).toBe('100');
  expect(search.answer.body.result).toHaveLength(20);
  expect(search.answer.body.result[0].ownCompany).toBe('Company 0120');
  expect(search.answer.body.result.at(-1).ownCompany).toBe('Company 0121');

  const first = await timed('/user?permissions=customer&order=ownCompany:ASC&limit=20');
  expect(first.answer.headers.get('total_count')).toBe(String(USERS + 1)); // and the demo customer
  const companies = await timed('/company?like=name:company 09&order=displayName:ASC&limit=20');
  expect(companies.answer.headers.get('total_count')).toBe('100');
  expect(companies.answer.body.result[0].name).toBe('Company 0900');
  const deep = await timed('/company?order=displayName:ASC&limit=20&offset=980');
  expect(deep.answer.body.result.map((c: { name: string }) => c.name).at(-1)).toBe('Company 0999');

  console.log(
    `10,000 users / 1,000 companies, direct to the user service (ms p50/p95): ` +
      `prefix search ${search.p50}/${search.p95}, first page by company ${first.p50}/${first.p95}, ` +
      `company prefix ${companies.p50}/${companies.p95}, company page 50 ${deep.p50}/${deep.p95}`,
  );
});

it('pages through one company prefix without a row twice or missing', async () => {
  const seen = new Set<string>();
  for (let offset = 0; offset < 100; offset += 20) {
    const page = await call(
      base,
      `/user?like=ownCompany:company 03&order=ownCompany:ASC&limit=20&offset=${offset}`,
      {
        token,
      },
    );
    for (const u of page.body.result as { id: string }[]) seen.add(u.id);
  }
  expect(seen.size).toBe(100);
});
