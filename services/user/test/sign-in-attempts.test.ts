/**
 * The per-account limit on password checks (routes/sign-in-limits.ts), over real HTTP: each check
 * takes an attempt BEFORE it runs, so parallel guesses cannot outrun it; sign-in and a profile
 * password change's `currentPassword` share it. `user_password_checks_total` (GET /metrics) shows how
 * many checks really ran.
 */
import {
  type Answer,
  call,
  createUser,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
} from './support';

const LIMIT = 10; // SIGN_IN_FAILURES_PER_ACCOUNT's default
const WINDOW_S = 15 * 60;
const RIGHT = 'the-right-one';
let service: UserServiceUnderTest;
let base: string;

beforeAll(async () => {
  service = await startUserService();
  base = service.url;
});
afterAll(() => stopAndClean(service));

/** Password checks run so far, as the service's metrics report them. */
async function checksRun(purpose: 'sign-in' | 'password-change'): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`user_password_checks_total{purpose="${purpose}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

/** The account is closed to sign-in: 429, Retry-After within the window, the message in minutes. */
function expectLimited(answer: Answer) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
  expect(answer.body.message).toMatch(
    /^Too many failed sign-ins for this account, please try again in \d+ minutes?$/,
  );
}

function statusCounts(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** Ends the account's window now (its counter expires, as it would at the window's end). */
async function endWindow(email: string) {
  const { redis, config } = service.ctx;
  const key = `${config.REDIS_PREFIX}:rate-limit:account:sign-in-failures|${email}`;
  expect(await redis.pexpire(key, 1)).toBe(1);
  await new Promise((r) => setTimeout(r, 20));
}

it('40 parallel guesses against one account: at most the limit are checked, the rest 429', async () => {
  const me = await createUser(service, 'customer', RIGHT);
  const before = await checksRun('sign-in');
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, i) => signIn(base, me.email, `guess-${i}`)),
  );
  expect(statusCounts(answers)).toEqual({ 403: LIMIT, 429: 40 - LIMIT });
  for (const refused of answers.filter((a) => a.status === 429)) expectLimited(refused);
  expect((await checksRun('sign-in')) - before).toBeLessThanOrEqual(LIMIT);

  // The right password too, in any spelling of the address, until the window ends; then it works.
  expectLimited(await signIn(base, me.email, RIGHT));
  expectLimited(await signIn(base, me.email.toUpperCase(), RIGHT));
  expect((await checksRun('sign-in')) - before).toBeLessThanOrEqual(LIMIT);
  await endWindow(me.email);
  expect((await signIn(base, me.email, RIGHT)).status).toBe(200);
});

it('successful sign-ins give their attempt back: they never use up the limit', async () => {
  const me = await createUser(service, 'customer', RIGHT);
  for (let i = 0; i < LIMIT - 1; i++) expect((await signIn(base, me.email, 'wrong')).status).toBe(403);
  for (let i = 0; i < 5; i++) expect((await signIn(base, me.email, RIGHT)).status).toBe(200);
  expect((await signIn(base, me.email, 'wrong')).status).toBe(403);
  expectLimited(await signIn(base, me.email, RIGHT));
});

it('a wrong currentPassword of a password change uses the same attempts as sign-in', async () => {
  const me = await createUser(service, 'customer', RIGHT);
  const signedIn = await signIn(base, me.email, RIGHT);
  expect(signedIn.status).toBe(200);
  const token = signedIn.body.result.token as string;
  const change = (currentPassword: string) =>
    call(base, `/user/${me.id}`, {
      method: 'PUT',
      json: { password: 'a-new-one', currentPassword },
      token,
    });

  const wrongSignIns = 4;
  for (let i = 0; i < wrongSignIns; i++)
    expect((await signIn(base, me.email, `guess-${i}`)).status).toBe(403);
  const before = await checksRun('password-change');
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => change(`current-${i}`)));
  const left = LIMIT - wrongSignIns;
  expect(statusCounts(answers)).toEqual({ 403: left, 429: 40 - left });
  for (const wrong of answers.filter((a) => a.status === 403))
    expect(wrong.body).toEqual({ message: 'Your current password is incorrect' });
  for (const refused of answers.filter((a) => a.status === 429)) expectLimited(refused);
  expect((await checksRun('password-change')) - before).toBeLessThanOrEqual(left);

  // Used up by the changes: sign-in and a change with the right password are refused alike.
  expectLimited(await signIn(base, me.email, RIGHT));
  expectLimited(await change(RIGHT));
  await endWindow(me.email);
  expect((await change(RIGHT)).status).toBe(200);
  expect((await signIn(base, me.email, 'a-new-one')).status).toBe(200);
});
