/**
 * A reset or welcome link does not outlive the address it went to, nor a suspension: staff changing a
 * user's e-mail, suspending or enabling them spends every pending link (its page then answers as for
 * a used link); a new address or a suspension also ends the user's sessions (SessionsRevoked, as a
 * password change does; after an Enable none is left to end).
 */
import {
  type EventEnvelope,
  PasswordResetRequested,
  SESSION_MESSAGES,
  WelcomeEmailRequested,
} from '@decor/contracts';
import { signResetToken } from '@decor/kit';
import { eventually, TEST_JWT_SECRET } from '@decor/kit/testing';
import { newReset, RESET_LINK_INVALID } from '../src/domain/password-reset';
import {
  type Answer,
  call,
  createUser,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
  userEvents,
} from './support';

const OLD = 'first-password';
let service: UserServiceUnderTest;
let base: string;
let staff: string;

beforeAll(async () => {
  service = await startUserService();
  base = service.url;
  await service.ctx.sessionVersions.start();
  staff = await tokenOf((await createUser(service, 'admin', OLD)).email);
});
afterAll(() => stopAndClean(service));

async function tokenOf(email: string, password = OLD): Promise<string> {
  const answer = await signIn(base, email, password);
  expect(answer.status).toBe(200);
  return answer.body.result.token as string;
}

const change = (id: string, json: object) => call(base, `/user/${id}`, { method: 'PUT', json, token: staff });

/** The link of the user's latest e-mail of `type`, as the notification service mints it from the event. */
async function linkFrom(userId: string, type: string, count = 1): Promise<string> {
  const mine = (events: EventEnvelope[]) => events.filter((e) => e.type === type && e.aggregateId === userId);
  const events = mine(await userEvents(service.ctx.kafka, (all) => mine(all).length >= count));
  const payload = events.at(-1)?.payload as { userId: string; resetId: string; expiresAt: string };
  return signResetToken(TEST_JWT_SECRET, payload);
}

async function resetLinkFor(user: { id: string; email: string }): Promise<string> {
  const asked = await call(base, '/send/reset', { method: 'POST', json: { email: user.email } });
  expect(asked.status).toBe(200);
  return linkFrom(user.id, PasswordResetRequested.type);
}

async function welcomeLinkFor(user: { id: string; email: string }): Promise<string> {
  const sent = await call(base, '/send/welcomeEmail', {
    method: 'POST',
    json: { email: user.email },
    token: staff,
  });
  expect(sent.status).toBe(200);
  return linkFrom(user.id, WelcomeEmailRequested.type);
}

/** The link's page and the reset form both answer as for a used link; the password is unchanged. */
async function expectSpent(user: { id: string }, link: string) {
  const refused = (answer: Answer) =>
    expect({ status: answer.status, body: answer.body }).toEqual({
      status: 401,
      body: { message: RESET_LINK_INVALID },
    });
  refused(await call(base, '/auth/resetLink', { token: link }));
  refused(
    await call(base, `/user/${user.id}`, { method: 'PUT', json: { password: 'taken-over' }, token: link }),
  );
}

/** The session token is refused as ended (within the time the event takes to come round). */
async function expectEnded(token: string, message: string = SESSION_MESSAGES.ended) {
  const answer = await eventually(async () => {
    const whoAmI = await call(base, '/auth/jwt', { token });
    return whoAmI.status === 401 ? whoAmI : undefined;
  }, 15_000);
  expect(answer.body).toEqual({ message });
}

describe('a staff change of the e-mail address', () => {
  it('spends a pending reset link and ends the sessions; the new address signs in', async () => {
    const me = await createUser(service, 'customer', OLD);
    const session = await tokenOf(me.email);
    const link = await resetLinkFor(me);
    expect((await call(base, '/auth/resetLink', { token: link })).status).toBe(200);

    const moved = `moved-${me.email}`;
    expect(await change(me.id, { email: moved })).toMatchObject({
      status: 200,
      body: { result: { email: moved } },
    });
    await expectSpent(me, link);
    await expectEnded(session);
    expect((await call(base, '/auth/jwt', { token: await tokenOf(moved) })).status).toBe(200);
    expect((await call(base, '/auth/jwt', { token: staff })).status).toBe(200);
  });

  it('spends a pending welcome link (it would have lasted a week)', async () => {
    const me = await createUser(service, 'customer', OLD);
    const link = await welcomeLinkFor(me);
    expect((await call(base, '/auth/resetLink', { token: link })).status).toBe(200);
    expect((await change(me.id, { email: `moved-${me.email}` })).status).toBe(200);
    await expectSpent(me, link);
  });

  it('leaves links and sessions alone when other fields change', async () => {
    const me = await createUser(service, 'customer', OLD);
    const session = await tokenOf(me.email);
    const link = await resetLinkFor(me);
    expect((await change(me.id, { firstName: 'Renamed', email: me.email.toUpperCase() })).status).toBe(200);
    expect((await call(base, '/auth/resetLink', { token: link })).status).toBe(200);
    expect((await call(base, '/auth/jwt', { token: session })).status).toBe(200);
  });
});

describe('Suspend and Enable', () => {
  it('a suspension spends a pending link and ends the sessions: both stay dead after Enable', async () => {
    const me = await createUser(service, 'customer', OLD);
    const session = await tokenOf(me.email);
    const link = await resetLinkFor(me);
    expect((await change(me.id, { active: false })).status).toBe(200);
    await expectEnded(session, SESSION_MESSAGES.suspended);
    expect((await change(me.id, { active: true })).status).toBe(200);
    await expectSpent(me, link);
    expect((await call(base, '/auth/jwt', { token: session })).status).toBe(401);
    expect((await signIn(base, me.email, OLD)).status).toBe(200);
  });

  it('an Enable spends a link still pending from before the suspension', async () => {
    const me = await createUser(service, 'customer', OLD);
    expect((await change(me.id, { active: false })).status).toBe(200);
    // A link issued before the suspension spent links (or racing it), still stored.
    const { jti, pending } = newReset(new Date(), 7 * 24 * 3600);
    await service.ctx.users.updateOne({ _id: me.id }, { $set: { passwordReset: pending } });
    const link = signResetToken(TEST_JWT_SECRET, {
      userId: me.id,
      resetId: jti,
      expiresAt: pending.expiresAt,
    });
    expect((await change(me.id, { active: true })).status).toBe(200);
    await expectSpent(me, link);
  });
});
