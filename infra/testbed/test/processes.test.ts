/**
 * The product's processes as src/processes.ts plans them for the bench and for `npm start`'s copy:
 * as the supervisor does (infra/cli/src/supervisor.ts), every runnable, a worker where it has one,
 * instance k ≥ 2 named `<name>-k` on `<PORT_ENV>_k`, each port free and drawn once.
 */
import { RUNNABLES } from '@decor/cli/runnables';
import { planProcesses } from '../src/processes';

it('plans every runnable and its worker, per instance, on distinct ports', async () => {
  const planned = await planProcesses(2);
  const names = planned.map((p) => p.name);
  for (const r of RUNNABLES) expect(names).toEqual(expect.arrayContaining([r.name, `${r.name}-2`]));
  expect(names).toEqual(expect.arrayContaining(['notification-worker', 'notification-worker-2']));
  expect(planned).toHaveLength(2 * (RUNNABLES.length + 1));
  expect(planned.map((p) => p.instance)).toEqual([
    ...Array(RUNNABLES.length + 1).fill(1),
    ...Array(RUNNABLES.length + 1).fill(2),
  ]);

  const gateway2 = planned.find((p) => p.name === 'gateway-2');
  expect(gateway2?.portEnv).toEqual({
    GATEWAY_PORT_2: gateway2?.port,
    GATEWAY_INTERNAL_PORT_2: gateway2?.internalPort,
  });
  // The gateway answers /readyz on its internal port; every other process on its own.
  expect(gateway2?.readyUrl).toBe(`http://127.0.0.1:${gateway2?.internalPort}/readyz`);
  const worker = planned.find((p) => p.name === 'notification-worker');
  expect(worker).toMatchObject({ entry: 'worker', dir: 'services/notification' });
  expect(worker?.portEnv).toEqual({ NOTIFICATION_WORKER_PORT: worker?.port });

  const ports = planned.flatMap((p) => Object.values(p.portEnv));
  expect(new Set(ports).size).toBe(ports.length);
});
