/**
 * An e-mail SMTP refused for good is listed to staff through the gateway (GET /api/send/failed) and
 * Replay (POST /api/send/failed/:id/replay) sends it once, when SMTP takes it again.
 */
import { randomUUID } from 'node:crypto';
import { FAILED_EMAIL_TEXTS, type FailedEmail, failedEmailReplayPath } from '@decor/contracts';
import { call, deleteRunKeys, eventually, mailTo, RUN_ID } from '@decor/kit/testing';
import { type Notification, queueIdle, smtpRelay } from '@decor/notification/testing';
import { type Stack, startStack } from '../src/stack';

const STAFF = `staff-failed-${RUN_ID}@decor.example`;

let stack: Stack;
let relay: Awaited<ReturnType<typeof smtpRelay>>;
let api: string;
const tokens = { admin: '', customer: '' };

beforeAll(async () => {
  relay = await smtpRelay();
  await relay.refuse(); // every recipient: 550, a refusal for good
  stack = await startStack({ notificationEnv: { SMTP_URL: relay.url, STAFF_EMAIL: STAFF } });
  api = `${stack.gatewayUrl}/api`;
  for (const role of ['admin', 'customer'] as const)
    tokens[role] = stack.gateway.signToken({
      id: `${role}0123456789abcdef01`,
      permissions: role,
      email: 'x@y.z',
    });
}, 120_000);

afterAll(async () => {
  if (stack?.notification) await deleteRunKeys(stack.notification.ctx.redis);
  await stack?.stop();
  await relay?.down();
});

const failedList = async () => {
  const answer = await call(api, '/send/failed', { token: tokens.admin });
  expect(answer.status).toBe(200);
  return answer.body?.result as FailedEmail[];
};

test('a refused e-mail is listed to staff only, and Replay sends it exactly once', async () => {
  const name = `Visitor ${randomUUID().slice(0, 8)}`;
  const enquiry = { name, email: `v-${RUN_ID}@decor.example`, message: 'Gold chargers for 120?' };
  expect((await call(api, '/send/info', { method: 'POST', json: enquiry })).status).toBe(200);
  const subject = `Website enquiry from ${name}`;

  const failed = await eventually(
    async () => (await failedList()).find((f) => f.subject === subject),
    30_000,
    'the refused enquiry in the failed list',
  );
  expect(failed).toMatchObject({ to: STAFF, subject, attemptsMade: 1 });
  expect(failed.error).toMatch(/550/);
  expect(Date.parse(failed.failedAt ?? '')).toBeGreaterThan(Date.now() - 60_000);

  // Staff only, at the gateway and at the service.
  expect((await call(api, '/send/failed', {})).status).toBe(401);
  expect((await call(api, '/send/failed', { token: tokens.customer })).status).toBe(403);
  const notification = stack.notification?.url as string;
  expect((await call(notification, '/send/failed', { token: tokens.customer })).status).toBe(403);
  const byCustomer = await call(api, failedEmailReplayPath(failed.id), {
    method: 'POST',
    token: tokens.customer,
  });
  expect(byCustomer.status).toBe(403);
  const unknown = await call(api, failedEmailReplayPath('email.nothing'), {
    method: 'POST',
    token: tokens.admin,
  });
  expect(unknown).toMatchObject({ status: 404, body: { message: FAILED_EMAIL_TEXTS.notFound } });
  expect(await mailTo(STAFF)).toHaveLength(0);

  await relay.up(); // SMTP takes mail again
  const replay = await call(api, failedEmailReplayPath(failed.id), { method: 'POST', token: tokens.admin });
  expect(replay.status).toBe(202);
  expect(replay.body?.result).toMatchObject({ id: failed.id });
  // A second click finds nothing failed any more.
  const again = await call(api, failedEmailReplayPath(failed.id), { method: 'POST', token: tokens.admin });
  expect(again.status).toBe(404);

  await eventually(
    async () => ((await mailTo(STAFF)).length > 0 ? true : undefined),
    30_000,
    'the replayed e-mail',
  );
  await queueIdle(stack.notification as Notification);
  const mails = await mailTo(STAFF);
  expect(mails.map((m) => m.Subject)).toEqual([subject]);
  expect(await failedList()).toEqual([]);
});
