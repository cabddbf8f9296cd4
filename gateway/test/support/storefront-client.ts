import { call, eventually } from '@decor/kit/testing';

/** A signed-in client of the public API (through the gateway), as the storefront uses it. */
export async function signedIn(api: string, email: string, password: string) {
  const answer = await call(api, '/auth/user', { method: 'POST', json: { email, password } });
  if (answer.status !== 200)
    throw new Error(`sign-in of ${email}: ${answer.status} ${JSON.stringify(answer.body)}`);
  const token = answer.headers.get('token') as string;
  const as = (path: string, opts: Omit<Parameters<typeof call>[2] & object, 'token'> = {}) =>
    call(api, path, { ...opts, token });
  return {
    token,
    call: as,
    /** The session's active cart once the user service has learnt it from cart events. */
    activeCart: (notId?: string) =>
      eventually(
        async () => {
          const cart = (await as('/auth/jwt')).body.result?.cart;
          return cart && cart.id !== notId
            ? (cart as { id: string; cartName: string; cartTotal: number })
            : undefined;
        },
        20_000,
        `the active cart of ${email}${notId ? ` other than ${notId}` : ''}`,
      ),
  };
}

/** A future event date (YYYY-MM-DD), `days` from today. */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
