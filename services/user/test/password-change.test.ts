/** PUT /user/{id}: one's own password with a session, or the reset form's call with a reset link's token. */
import { PasswordResetRequested } from '@decor/contracts';
import { signResetToken } from '@decor/kit';
import { TEST_JWT_SECRET } from '@decor/kit/testing';
import { createSigner } from 'fast-jwt';
import { RESET_LINK_INVALID } from '../src/domain/password-reset';
import {
  type Answer,
  call,
  createUser,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
} from './support';

const OLD = 'first-password';
let service: UserServiceUnderTest;
let base: string;

// The relay is off so a reset request's event (with the link's token) stays in the user's outbox to be read.
beforeAll(async () => {
  service = await startUserService({ OUTBOX_RELAY: 'false' });
  base = service.url;
});
afterAll(() => stopAndClean(service));

async function tokenOf(email: string, password = OLD): Promise<string> {
  const answer = await signIn(base, email, password);
  expect(answer.status).toBe(200);
  return answer.body.result.token as string;
}

/** With a session the current password goes along (OLD); a reset link's token needs none. */
const putPassword = (id: string, password: unknown, token?: string, currentPassword = OLD) =>
  call(base, `/user/${id}`, { method: 'PUT', json: { password, currentPassword }, token });

function expectAnswer(answer: Answer, status: number, message: string) {
  expect({ status: answer.status, body: answer.body }).toEqual({ status, body: { message } });
}

/** Asks for a reset link and returns the link's token, as the notification service mints it. */
async function resetTokenFor(email: string): Promise<string> {
  expect((await call(base, '/send/reset', { method: 'POST', json: { email } })).status).toBe(200);
  const user = await service.ctx.users.findOne({ email });
  const event = user?.outbox.filter((e) => e.type === PasswordResetRequested.type).at(-1);
  if (!event) throw new Error(`no PasswordResetRequested event for ${email}`);
  const payload = event.payload as { userId: string; resetId: string; expiresAt: string };
  expect(JSON.stringify(payload)).not.toMatch(/eyJ/); // no token in the event
  return signResetToken(TEST_JWT_SECRET, payload);
}

describe('changing one’s own password with a session', () => {
  it('stores the new password: sign-in works with it and refuses the old one', async () => {
    const me = await createUser(service, 'customer', OLD);
    const answer = await putPassword(me.id, '  new-secret ', await tokenOf(me.email));
    expect(answer).toMatchObject({ status: 200, body: { result: { message: 'Password updated' } } });

    expect((await signIn(base, me.email, 'new-secret')).status).toBe(200);
    expectAnswer(await signIn(base, me.email, OLD), 403, 'Incorrect username or password');
    const stored = await service.ctx.users.findById(me.id);
    expect(stored?.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(answer.body)).not.toContain('scrypt');
  });

  it('lets staff change their own password too', async () => {
    const admin = await createUser(service, 'admin', OLD);
    expect((await putPassword(admin.id, 'admin-new', await tokenOf(admin.email))).status).toBe(200);
    expect((await signIn(base, admin.email, 'admin-new')).status).toBe(200);
  });

  it('refuses a password under 3 characters (after trimming) with the spec text, and keeps the old one', async () => {
    const me = await createUser(service, 'customer', OLD);
    const token = await tokenOf(me.email);
    for (const short of ['ab', '  ab  ', '']) {
      expectAnswer(await putPassword(me.id, short, token), 400, 'Password must be at least 3 characters');
    }
    expect((await signIn(base, me.email, OLD)).status).toBe(200);
  });

  it('refuses a body with other fields or without a password', async () => {
    const me = await createUser(service, 'customer', OLD);
    const token = await tokenOf(me.email);
    const extra = await call(base, `/user/${me.id}`, {
      method: 'PUT',
      json: { password: 'abcdef', permissions: 'superadmin' },
      token,
    });
    expect(extra.status).toBe(400);
    expect((await call(base, `/user/${me.id}`, { method: 'PUT', json: {}, token })).status).toBe(400);
    expect((await service.ctx.users.findById(me.id))?.permissions).toBe('customer');
  });

  it('does not let a customer touch another user: 404, as if the user did not exist', async () => {
    const me = await createUser(service, 'customer', OLD);
    const other = await createUser(service, 'customer', OLD);
    expectAnswer(await putPassword(other.id, 'taken-over', await tokenOf(me.email)), 404, 'User not found');
    expect((await signIn(base, other.email, OLD)).status).toBe(200);
  });

  it('does not let staff change another user’s password (403)', async () => {
    const victim = await createUser(service, 'customer', OLD);
    for (const role of ['admin', 'superadmin'] as const) {
      const staff = await createUser(service, role, OLD);
      expectAnswer(
        await putPassword(victim.id, 'taken-over', await tokenOf(staff.email)),
        403,
        'You are not allowed to do this',
      );
    }
    expect((await signIn(base, victim.email, OLD)).status).toBe(200);
  });

  it('refuses anonymous callers, forged tokens and malformed ids', async () => {
    const me = await createUser(service, 'customer', OLD);
    expectAnswer(await putPassword(me.id, 'abcdef'), 401, 'Authentication required');
    expectAnswer(await putPassword('not-an-id', 'abcdef'), 401, 'Authentication required');

    const forged = createSigner({ key: 'not-the-real-secret-at-all' })({
      sub: me.id,
      permissions: 'customer',
      email: me.email,
    });
    expectAnswer(await putPassword(me.id, 'abcdef', forged), 401, 'Invalid session token');

    expectAnswer(await putPassword('not-an-id', 'abcdef', await tokenOf(me.email)), 400, 'Invalid id');
    expect((await signIn(base, me.email, OLD)).status).toBe(200);
  });
});

describe('the reset form’s call (a reset link’s token as Bearer)', () => {
  it('sets the new password once: the link is then spent', async () => {
    const me = await createUser(service, 'customer', OLD);
    const link = await resetTokenFor(me.email);

    const who = await call(base, '/auth/resetLink', { token: link });
    expect(who).toMatchObject({ status: 200, body: { result: { email: me.email, id: me.id } } });

    expect(await putPassword(me.id, 'from-the-link', link)).toMatchObject({
      status: 200,
      body: { result: { message: 'Password updated' } },
    });
    expect((await signIn(base, me.email, 'from-the-link')).status).toBe(200);
    expectAnswer(await signIn(base, me.email, OLD), 403, 'Incorrect username or password');

    expectAnswer(await putPassword(me.id, 'second-use', link), 401, RESET_LINK_INVALID);
    expectAnswer(await call(base, '/auth/resetLink', { token: link }), 401, RESET_LINK_INVALID);
    expect((await signIn(base, me.email, 'from-the-link')).status).toBe(200);
  });

  it('keeps the link usable after a too-short password, and refuses it for another user', async () => {
    const me = await createUser(service, 'customer', OLD);
    const other = await createUser(service, 'customer', OLD);
    const link = await resetTokenFor(me.email);

    expectAnswer(await putPassword(me.id, 'ab', link), 400, 'Password must be at least 3 characters');
    expectAnswer(await putPassword(other.id, 'taken-over', link), 401, RESET_LINK_INVALID);
    expect((await signIn(base, other.email, OLD)).status).toBe(200);
    expect((await putPassword(me.id, 'long-enough', link)).status).toBe(200);
  });

  it('lets only one of two simultaneous uses of the same link through', async () => {
    const me = await createUser(service, 'customer', OLD);
    const link = await resetTokenFor(me.email);
    const answers = await Promise.all([
      putPassword(me.id, 'first-racer', link),
      putPassword(me.id, 'second-racer', link),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    const winner = answers[0]?.status === 200 ? 'first-racer' : 'second-racer';
    expect((await signIn(base, me.email, winner)).status).toBe(200);
  });

  it('refuses a forged reset token, and a session change spends a pending link', async () => {
    const me = await createUser(service, 'customer', OLD);
    const forged = createSigner({ key: 'not-the-real-secret-at-all' })({
      sub: me.id,
      purpose: 'password-reset',
      jti: 'whatever',
    });
    expectAnswer(await putPassword(me.id, 'abcdef', forged), 401, RESET_LINK_INVALID);

    const link = await resetTokenFor(me.email);
    expect((await putPassword(me.id, 'changed-in-profile', await tokenOf(me.email))).status).toBe(200);
    expectAnswer(await putPassword(me.id, 'abcdef', link), 401, RESET_LINK_INVALID);
  });

  it('is not a session: a reset token cannot read a user', async () => {
    const me = await createUser(service, 'customer', OLD);
    const link = await resetTokenFor(me.email);
    expectAnswer(await call(base, `/user/${me.id}`, { token: link }), 401, 'Invalid session token');
  });
});

describe('GET /user/{id}', () => {
  it('shows oneself, hides others from a customer (404), and shows anyone to staff', async () => {
    const me = await createUser(service, 'customer', OLD);
    const other = await createUser(service, 'customer', OLD);
    const admin = await createUser(service, 'admin', OLD);
    const mine = await call(base, `/user/${me.id}`, { token: await tokenOf(me.email) });
    expect(mine).toMatchObject({ status: 200, body: { result: { id: me.id, email: me.email } } });
    expect(JSON.stringify(mine.body)).not.toMatch(/passwordHash|outbox/);
    expectAnswer(
      await call(base, `/user/${other.id}`, { token: await tokenOf(me.email) }),
      404,
      'User not found',
    );
    expect((await call(base, `/user/${other.id}`, { token: await tokenOf(admin.email) })).status).toBe(200);
    expectAnswer(await call(base, '/user/whoever'), 401, 'Authentication required');
  });
});
