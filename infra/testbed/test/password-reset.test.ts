import { type CaughtMail, eventually, mailTo } from '@decor/kit/testing';
import { type Stack, startStack } from '../src/stack';

const CUSTOMER = 'customer@decor.example';

let stack: Stack;
let api: string;

beforeAll(async () => {
  stack = await startStack();
  api = `${stack.gatewayUrl}/api`;
});
afterAll(() => stack.stop());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${api}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/**
 * The reset e-mails to the demo customer. Other test files (the browser journeys) share the mail
 * catcher and send that address other mail (order requests), so only reset mails count here.
 */
const resetMails = async () =>
  (await mailTo(CUSTOMER)).filter((m) => m.Subject === 'Reset your Gala & Grove Event Rentals password');

const tokenIn = (mail: CaughtMail) => /\/reset\/([\w.-]+)/.exec(mail.Text)?.[1] ?? '';

describe('password reset: HTTP → gateway → user service → outbox → Kafka → notification → BullMQ → SMTP', () => {
  it('e-mails a working single-use reset link to an existing account', async () => {
    // Earlier test files may have left reset mails to this address: only the one asked for now counts.
    const before = (await resetMails()).length;
    const res = await post('/send/reset', { email: CUSTOMER }, { 'x-request-id': 'reset-e2e-1' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('reset-e2e-1');

    const mail = await eventually(
      async () => {
        const mails = await resetMails();
        return mails.length > before ? mails.at(-1) : undefined;
      },
      30_000,
      'the reset e-mail',
    );
    expect(mail?.Subject).toBe('Reset your Gala & Grove Event Rentals password');
    expect(mail?.Text).toMatch(/http:\/\/127\.0\.0\.1:8080\/reset\/[\w.-]+/);
    expect(mail?.HTML).toContain('Choose a new password');

    const token = tokenIn(mail as CaughtMail);
    const link = await fetch(`${api}/auth/resetLink`, { headers: { authorization: `Bearer ${token}` } });
    expect(link.status).toBe(200);
    const { result } = (await link.json()) as { result: { email: string; id: string } };
    expect(result.email).toBe(CUSTOMER);
    expect(result.id).toMatch(/^[a-f0-9]{24}$/);

    // The reset token is not a session: routes that need a signed-in user refuse it.
    const asSession = await fetch(`${api}/auth/jwt`, { headers: { authorization: `Bearer ${token}` } });
    expect(asSession.status).toBe(401);

    // The reset form sets the new password with it, once.
    const setPassword = () =>
      fetch(`${api}/user/${result.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ password: 'fresh-secret' }),
      });
    expect((await setPassword()).status).toBe(200);
    expect((await post('/auth/user', { email: CUSTOMER, password: 'fresh-secret' })).status).toBe(200);
    expect((await post('/auth/user', { email: CUSTOMER, password: 'demo1234' })).status).toBe(403);
    const again = await setPassword();
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({ message: 'This password reset link is invalid or has expired' });
  });

  it('answers the same for an unknown e-mail and sends nothing', async () => {
    const unknown = 'nobody-here@decor.example';
    const res = await post('/send/reset', { email: unknown });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { message: string } }).result.message).toMatch(
      /If an account exists/,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailTo(unknown)).toHaveLength(0);
  });

  it('replaces an earlier link: only the newest one works', async () => {
    const before = (await resetMails()).length;
    await post('/send/reset', { email: CUSTOMER });
    const mails = await eventually(
      async () => {
        const all = await resetMails();
        return all.length > before ? all : undefined;
      },
      30_000,
      'the second reset e-mail',
    );
    const older = tokenIn(mails[before - 1] as CaughtMail);
    const newest = tokenIn(mails[mails.length - 1] as CaughtMail);
    const check = (token: string) =>
      fetch(`${api}/auth/resetLink`, { headers: { authorization: `Bearer ${token}` } });
    expect((await check(newest)).status).toBe(200);
    const stale = await check(older);
    expect(stale.status).toBe(401);
    expect(await stale.json()).toEqual({ message: 'This password reset link is invalid or has expired' });
  });
});
