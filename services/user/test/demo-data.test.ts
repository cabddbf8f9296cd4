/** The demo accounts: a customer of a demo company, each user announced by UserCreated; seeded once. */
import { UserCreated } from '@decor/contracts';
import { outboxesRelayed, RUN_ID } from '@decor/kit/testing';
import { DEMO_COMPANY, seedDemoUsers } from '../src/demo-data';
import {
  call,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
  userEvents,
} from './support';

const DEMO = ['owner@decor.example', 'staff@decor.example', 'customer@decor.example'];
let service: UserServiceUnderTest;

beforeAll(async () => {
  service = await startUserService();
});
afterAll(() => stopAndClean(service));

test('the demo customer belongs to the demo company', async () => {
  const company = await service.ctx.companies.findOne({ name: 'Evergreen Weddings' });
  expect(company).toMatchObject({ ...DEMO_COMPANY, displayName: 'Evergreen Weddings' });

  const signedIn = await signIn(service.url, 'customer@decor.example', 'demo1234');
  expect(signedIn.status).toBe(200);
  const me = await call(service.url, '/auth/jwt', { token: signedIn.body.result.token });
  expect(me.body.result).toMatchObject({
    permissions: 'customer',
    CompanyId: company?._id.toString(),
    ownCompany: 'Evergreen Weddings',
  });
});

test('each seeded user is announced with UserCreated on the user topic', async () => {
  await outboxesRelayed([service.ctx.users], {}, 10_000);
  const events = await userEvents(
    service.ctx.kafka,
    (seen) => seen.filter((e) => e.type === UserCreated.type).length >= DEMO.length,
  );
  const created = events.filter((e) => e.type === UserCreated.type);
  expect(created.map((e) => (e.payload as { email: string }).email).sort()).toEqual([...DEMO].sort());

  const customer = await service.ctx.users.findOne({ email: 'customer@decor.example' });
  const id = customer?._id.toString();
  expect(created.find((e) => e.aggregateId === id)).toMatchObject({
    aggregateType: 'user',
    version: 1,
    payload: {
      userId: id,
      email: 'customer@decor.example',
      displayName: 'Casey Morgan',
      permissions: 'customer',
      companyId: customer?.CompanyId,
      ownCompany: 'Evergreen Weddings',
    },
  });
});

test('seeding again, or a second instance on the same database, adds nothing', async () => {
  await seedDemoUsers(service.ctx);
  const second = await startUserService({ MONGO_DB: service.ctx.config.MONGO_DB });
  try {
    expect(await service.ctx.users.countDocuments()).toBe(DEMO.length);
    expect(await service.ctx.companies.countDocuments()).toBe(1);
  } finally {
    await second.shutdown('test over');
  }
});

test('two instances starting at once on an empty database seed one set of demo users', async () => {
  const shared = { MONGO_DB: `${RUN_ID}_user_twice`, KAFKA_TOPIC_PREFIX: `${RUN_ID}twice` };
  const [a, b] = await Promise.all([startUserService(shared), startUserService(shared)]);
  try {
    expect(await a.ctx.users.countDocuments()).toBe(DEMO.length);
    expect(await a.ctx.companies.countDocuments()).toBe(1);
    expect((await signIn(b.url, 'customer@decor.example', 'demo1234')).status).toBe(200);
  } finally {
    await b.shutdown('test over');
    await stopAndClean(a);
  }
});
