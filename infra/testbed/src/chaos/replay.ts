/**
 * Issue 28's fault: "restart the gateway and each service, then replay an ended session's token".
 * Which sessions ended lives in each process's memory, read from the user topic; a process just
 * started has not read it yet. The demo customer signs in and out (a session of no one in the load),
 * then every service and the gateway are restarted at once — SIGTERM, as a deploy restarts them (they
 * drain what is under way; the supervisor starts them again) — and the ended token is replayed every 200 ms — through the gateway and straight at the services — until
 * every process answers /readyz, then once more. Any 2xx is an ended session accepted: the row fails.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { findProc, runnableProc } from '@decor/cli/procs';
import type { NpmStartStack } from '../npm-start';
import { notReady } from './checks';
import type { Fault } from './faults';

const DEMO_CUSTOMER = { email: 'customer@decor.example', password: 'demo1234' };
/** One signed-in route per service a customer reaches: through the gateway, and at the service. */
const AT_SERVICE: Record<string, string> = { user: '/auth/jwt', cart: '/cart', order: '/estimate' };
/** The gateway's own (a live-order stream ticket): no service behind it checks the session. */
const GATEWAY_OWN = '/orders/events/ticket';
const REPLAY_EVERY_MS = 200;

async function ask(url: string, init: { method?: string; token?: string; json?: unknown } = {}) {
  try {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
      signal: AbortSignal.timeout(5_000),
    });
    await res.arrayBuffer();
    return { status: res.status, token: res.headers.get('token') };
  } catch {
    return { status: 0, token: null }; // refused (restarting) or no answer
  }
}

/** A token whose session has ended, and the gateway already refusing it (the sign-out is on the topic). */
async function endedSession(stack: NpmStartStack): Promise<string> {
  const api = `${stack.gatewayUrl}/api`;
  const signIn = await ask(`${api}/auth/user`, { method: 'POST', json: DEMO_CUSTOMER });
  if (signIn.status !== 200 || !signIn.token) throw new Error(`demo customer sign-in: ${signIn.status}`);
  const token = signIn.token;
  const out = await ask(`${api}/auth/logout`, { method: 'POST', token });
  if (out.status !== 200) throw new Error(`sign-out: ${out.status}`);
  for (let i = 0; i < 50; i++) {
    if ((await ask(`${api}/auth/jwt`, { token })).status === 401) return token;
    await sleep(100);
  }
  throw new Error('the sign-out was not heard by the gateway within 5 s');
}

export function restartAllReplayEndedSession(): Fault {
  let summary: string | undefined;
  return {
    name: 'restart all, replay ended session',
    kind: 'kill',
    refusalsAllowed: true,
    begin: async (stack) => {
      const token = await endedSession(stack);
      const mains = stack.processes.filter((p) => p.entry === 'main');
      const stopped: number[] = [];
      for (const p of mains) {
        const found = findProc(stack.startPid, runnableProc(p.dir, 'main'));
        if (!found) throw new Error(`no running ${p.name} process found below npm start`);
        process.kill(found.pid, 'SIGTERM');
        stopped.push(found.pid);
      }
      // The old processes answer /readyz until they have drained: "ready again" counts only once
      // every one of them is gone, or the replay would end before any new process answered.
      const oldOnesGone = () =>
        stopped.every((pid) => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        });
      const api = `${stack.gatewayUrl}/api`;
      const targets: { what: string; url: string; method?: string }[] = [
        ...Object.values(AT_SERVICE).map((path) => ({ what: `gateway ${path}`, url: `${api}${path}` })),
        { what: `gateway POST ${GATEWAY_OWN}`, url: `${api}${GATEWAY_OWN}`, method: 'POST' },
        ...mains
          .filter((p) => AT_SERVICE[p.name])
          .map((p) => ({
            what: `${p.name} ${AT_SERVICE[p.name]}`,
            url: `${p.readyUrl.replace(/\/readyz$/, '')}${AT_SERVICE[p.name]}`,
          })),
      ];
      const accepted: string[] = [];
      const seen = new Map<number, number>();
      const round = async () => {
        const answers = await Promise.all(targets.map((t) => ask(t.url, { method: t.method, token })));
        answers.forEach((a, i) => {
          seen.set(a.status, (seen.get(a.status) ?? 0) + 1);
          if (a.status >= 200 && a.status < 300) accepted.push(`${targets[i]?.what} ${a.status}`);
        });
        return answers;
      };
      // From the kill until every process is ready again (2 minutes at most), then once more.
      const replay = (async () => {
        const deadline = Date.now() + 120_000;
        while (Date.now() < deadline) {
          await round();
          if (oldOnesGone() && (await notReady(stack)).length === 0) break;
          await sleep(REPLAY_EVERY_MS);
        }
        const last = await round();
        const notRefused = last.flatMap((a, i) =>
          a.status === 401 ? [] : [`${targets[i]?.what} ${a.status}`],
        );
        const counts = [...seen]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s || 'no answer'}×${n}`)
          .join(', ');
        if (accepted.length > 0)
          throw new Error(`ended session accepted: ${accepted.slice(0, 5).join('; ')} (answers ${counts})`);
        if (notRefused.length > 0)
          throw new Error(
            `ended session not refused once ready: ${notRefused.join('; ')} (answers ${counts})`,
          );
        summary = `ended session replayed ${[...seen.values()].reduce((a, b) => a + b, 0)} times: ${counts}`;
      })();
      replay.catch(() => undefined); // read by the end below
      return async () => {
        await replay;
      };
    },
    summary: () => summary,
  };
}
