/**
 * Sessions end when they should: a password change (which needs the current password), a reset, a
 * sign-out and a suspension refuse the earlier tokens, through the kit's auth hooks (the session
 * versions every service learns from the user topic, not this service's database).
 */
import { type EventEnvelope, PasswordResetRequested, SESSION_MESSAGES } from '@decor/contracts';
import { AUDIENCES, JWT_ISSUER, signResetToken } from '@decor/kit';
import { eventually, TEST_JWT_SECRET } from '@decor/kit/testing';
import { createSigner } from 'fast-jwt';
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

beforeAll(async () => {
  service = await startUserService();
  base = service.url;
  await service.ctx.sessionVersions.start();
});
afterAll(() => stopAndClean(service));

async function tokenOf(email: string, password = OLD): Promise<string> {
  const answer = await signIn(base, email, password);
  expect(answer.status).toBe(200);
  return answer.body.result.token as string;
}

const whoAmI = (token: string) => call(base, '/auth/jwt', { token });

/** The token is refused as an ended session (within the time the event takes to come round). */
async function refused(token: string, message: string = SESSION_MESSAGES.ended): Promise<Answer> {
  return eventually(async () => {
    const answer = await whoAmI(token);
    return answer.status === 401 ? answer : undefined;
  }, 15_000).then((answer) => {
    expect(answer.body).toEqual({ message });
    expect(answer.headers.get('expiredtoken')).toBe('true');
    return answer;
  });
}

describe('changing one’s password with a session', () => {
  it('needs the current password', async () => {
    const me = await createUser(service, 'customer', OLD);
    const token = await tokenOf(me.email);
    const put = (json: object) => call(base, `/user/${me.id}`, { method: 'PUT', json, token });
    expect(await put({ password: 'new-secret' })).toMatchObject({
      status: 400,
      body: { message: 'Please enter your current password' },
    });
    expect(await put({ password: 'new-secret', currentPassword: 'wrong-one' })).toMatchObject({
      status: 403,
      body: { message: 'Your current password is incorrect' },
    });
    expect((await signIn(base, me.email, OLD)).status).toBe(200);
  });

  it('ends every earlier session; this one goes on with the new token it answers', async () => {
    const me = await createUser(service, 'customer', OLD);
    const other = await tokenOf(me.email);
    const mine = await tokenOf(me.email);
    const answer = await call(base, `/user/${me.id}`, {
      method: 'PUT',
      json: { password: 'new-secret', currentPassword: OLD },
      token: mine,
    });
    expect(answer.status).toBe(200);
    const fresh = answer.body.result.token as string;
    expect(answer.headers.get('token')).toBe(fresh);
    await refused(other);
    await refused(mine);
    expect((await whoAmI(fresh)).status).toBe(200);
    expect((await whoAmI(await tokenOf(me.email, 'new-secret'))).status).toBe(200);
  });
});

it('a sign-out (POST /auth/logout) ends the sessions; signing in again works', async () => {
  const me = await createUser(service, 'customer', OLD);
  const token = await tokenOf(me.email);
  expect(await call(base, '/auth/logout', { method: 'POST', token })).toMatchObject({
    status: 200,
    body: { result: { message: 'Signed out' } },
  });
  await refused(token);
  expect((await whoAmI(await tokenOf(me.email))).status).toBe(200);
});

it('a reset through the link ends the sessions', async () => {
  const me = await createUser(service, 'customer', OLD);
  const token = await tokenOf(me.email);
  expect((await call(base, '/send/reset', { method: 'POST', json: { email: me.email } })).status).toBe(200);
  const find = (events: EventEnvelope[]) =>
    events.find((e) => e.type === PasswordResetRequested.type && e.aggregateId === me.id);
  const event = find(await userEvents(service.ctx.kafka, (events) => !!find(events)));
  const link = signResetToken(
    TEST_JWT_SECRET,
    event?.payload as { userId: string; resetId: string; expiresAt: string },
  );
  const reset = await call(base, `/user/${me.id}`, {
    method: 'PUT',
    json: { password: 'via-link' },
    token: link,
  });
  expect(reset.status).toBe(200);
  await refused(token);
  expect((await whoAmI(await tokenOf(me.email, 'via-link'))).status).toBe(200);
});

it('a suspension ends the sessions; after Enable only a new sign-in works', async () => {
  const me = await createUser(service, 'customer', OLD);
  const admin = await createUser(service, 'admin', OLD);
  const token = await tokenOf(me.email);
  const staff = await tokenOf(admin.email);
  const setActive = (active: boolean) =>
    call(base, `/user/${me.id}`, { method: 'PUT', json: { active }, token: staff });
  expect((await setActive(false)).status).toBe(200);
  await refused(token, SESSION_MESSAGES.suspended);
  expect((await setActive(true)).status).toBe(200);
  await eventually(async () => ((await whoAmI(await tokenOf(me.email))).status === 200 ? true : undefined));
  expect((await whoAmI(token)).status).toBe(401);
});

it('refuses a token without the issuer and session audience, and the queue board’s', async () => {
  const me = await createUser(service, 'customer', OLD);
  const claims = { sub: me.id, permissions: 'customer', email: me.email, sv: Date.now() };
  const bare = createSigner({ key: TEST_JWT_SECRET })(claims);
  const board = createSigner({ key: TEST_JWT_SECRET, iss: JWT_ISSUER, aud: AUDIENCES.queueBoard })(claims);
  const good = createSigner({
    key: TEST_JWT_SECRET,
    iss: JWT_ISSUER,
    aud: AUDIENCES.session,
    expiresIn: 60_000,
  })(claims);
  for (const token of [bare, board])
    expect(await whoAmI(token)).toMatchObject({ status: 401, body: { message: 'Invalid session token' } });
  expect((await whoAmI(good)).status).toBe(200);
});

it('an admin cannot send a set-password link to an admin or superadmin; a superadmin can', async () => {
  const admin = await createUser(service, 'admin', OLD);
  const owner = await createUser(service, 'superadmin', OLD);
  const customer = await createUser(service, 'customer', OLD);
  const send = (email: string, token: string) =>
    call(base, '/send/welcomeEmail', { method: 'POST', json: { email }, token });
  const adminToken = await tokenOf(admin.email);
  for (const target of [owner, await createUser(service, 'admin', OLD)]) {
    expect(await send(target.email, adminToken)).toMatchObject({
      status: 403,
      body: { message: 'Only a superadmin can manage admins' },
    });
  }
  expect((await send(customer.email, adminToken)).status).toBe(200);
  expect((await send(admin.email, await tokenOf(owner.email))).status).toBe(200);
});
