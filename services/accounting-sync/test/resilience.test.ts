import { EstimateSubmitted } from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
import { enqueueSync } from '../src/jobs/sync-queue';
import { customerWithProduct, estimatePayload, submittedEstimates } from './fixtures';
import {
  connect,
  emulatorCall,
  newId,
  newRealm,
  publish,
  qboRecords,
  qboStats,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

/**
 * Staff send every estimate, 20 requests at a time; answers 202 (or 200 when that job already ran).
 * Quickly: one by one, the sends paced the jobs, and a loaded run had synced all 200 before the test
 * could expire the token "midway".
 */
async function sendAll(sync: Sync, ids: string[]) {
  const token = staffToken(sync);
  for (let i = 0; i < ids.length; i += 20) {
    const answers = await Promise.all(
      ids
        .slice(i, i + 20)
        .map((id) => request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id } })),
    );
    for (const answer of answers) expect([200, 202]).toContain(answer.status);
  }
}

/** How many of these estimates the sync has written to QuickBooks. */
const landedOf = (sync: Sync, ids: string[]) =>
  sync.ctx.records.countDocuments({ recordId: { $in: ids }, qboId: { $ne: null } });

async function estimatesInQbo(realmId: string, ids: string[], sync: Sync, timeoutMs = 60_000) {
  const landed = () => landedOf(sync, ids);
  try {
    return await eventually(
      async () => ((await landed()) === ids.length ? qboRecords(realmId, 'Estimate') : undefined),
      timeoutMs,
      `${ids.length} estimates in QuickBooks`,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${await syncState(sync, realmId, await landed())}`);
  }
}

/** What a batch that did not land was doing: the queue, its failures, the connection, QuickBooks' counts. */
async function syncState(sync: Sync, realmId: string, landed: number): Promise<string> {
  const queue = sync.ctx.syncQueue;
  const failed = (await queue.getFailed(0, 2)).map((j) => `${j.id}: ${j.failedReason}`);
  return JSON.stringify(
    {
      landed,
      paused: await queue.isPaused(),
      counts: await queue.getJobCounts(),
      failed,
      connection: await sync.ctx.sessions.status(),
      quickBooks: await qboStats(realmId),
    },
    null,
    1,
  );
}

describe('QuickBooks failures', () => {
  let sync: Sync;
  let realmId: string;
  let customer: { userId: string; sku: string };

  beforeAll(async () => {
    realmId = await newRealm('Resilience Co');
    // 25 requests a second: the 200-job batch lasts 8 s, long enough to expire its token midway even
    // when a loaded machine delays the test's check.
    sync = await startSync({ QBO_WORKER_CONCURRENCY: '8', QBO_RATE_LIMIT_PER_MINUTE: '1500' });
    expect((await connect(sync, realmId)).status).toBe(200);
    customer = await customerWithProduct(sync, 'Rae');
  });
  afterAll(() => stopAndClean(sync));

  it('refreshes an access token that expires in the middle of a 200-job batch exactly once', async () => {
    const ids = await submittedEstimates(sync, customer.userId, customer.sku, 200);
    const grantsBefore = (await qboStats(realmId)).grants.refresh_token;
    const landed = () => landedOf(sync, ids);
    await sendAll(sync, ids);
    await eventually(async () => ((await landed()) >= 40 ? true : undefined));
    const synced = await landed();
    await emulatorCall(`/__emulator/realms/${realmId}/expire-access-tokens`, { method: 'POST' });
    // The token expired with part of the batch still to go (else this test proves nothing).
    expect(synced).toBeLessThan(ids.length - 20);
    // 11 s alone; at load 10 (three jest workers on two cores) the 200 jobs outlasted a 60 s wait.
    const estimates = await estimatesInQbo(realmId, ids, sync, 150_000);
    expect((await qboStats(realmId)).grants.refresh_token).toBe(grantsBefore + 1);
    const docNumbers = estimates.map((e) => e.DocNumber);
    expect(new Set(docNumbers).size).toBe(docNumbers.length);
  }, 180_000);

  it('parks jobs while the connection is revoked (not failed, not lost) and lands them after reconnecting', async () => {
    await emulatorCall(`/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    const ids = await submittedEstimates(sync, customer.userId, customer.sku, 5);
    // The session looks valid until QuickBooks says otherwise: the requests are accepted…
    const token = staffToken(sync);
    await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: ids[0] } });
    // …and the job finds out, loses the connection and parks.
    await eventually(async () =>
      (await request(sync.url, '/qbo/status', { token })).body.result.connected ? undefined : true,
    );
    const refused = await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: ids[1] } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('qbo-session-expired')).toBe('true');
    // Jobs from events still queue up (here: enqueued directly as a handler would).
    for (const id of ids.slice(1)) {
      const rec = await sync.ctx.records.findById(`estimate:${id}`).lean();
      await enqueueSync(sync.ctx.syncQueue, {
        kind: 'estimate',
        recordId: id,
        action: 'upsert',
        revision: rec?.revision ?? 1,
      });
    }
    await new Promise((r) => setTimeout(r, 3000));
    const status = (await request(sync.url, '/qbo/status', { token })).body.result;
    expect(status.queues[0]).toMatchObject({ paused: true, failed: 0 });
    expect(await landedOf(sync, ids)).toBe(0);

    expect((await connect(sync, realmId)).status).toBe(200);
    await estimatesInQbo(realmId, ids, sync);
    expect((await request(sync.url, '/qbo/status', { token })).body.result.queues[0]).toMatchObject({
      paused: false,
      failed: 0,
    });
  });

  it('fails a job at once on a validation fault, shows it with QuickBooks’ message, and Retry works once the record is fixed', async () => {
    const id = newId();
    const payload = estimatePayload(id, customer.userId, customer.sku, { email: 'not-an-address' });
    await publish(sync, EstimateSubmitted, id, payload);
    await eventually(async () => (await sync.ctx.records.findById(`estimate:${id}`).lean()) ?? undefined);
    await sendAll(sync, [id]);
    const token = staffToken(sync);
    const failed = await eventually(async () => {
      const list = (await request(sync.url, '/qbo/jobs/failed', { token })).body.result as Array<
        Record<string, string>
      >;
      return list.find((j) => j.recordId === id);
    });
    expect(failed).toMatchObject({
      kind: 'estimate',
      label: `Estimate ${payload.docNumber}`,
      attemptsMade: 1,
    });
    expect(failed.message).toContain('Invalid email address format');

    // Fixed on the site (a corrected estimate arrives), then Retry on /admin/sync.
    await publish(sync, EstimateSubmitted, id, {
      ...payload,
      customer: { ...payload.customer, email: 'fixed@decor.example' },
    });
    await eventually(async () =>
      (await sync.ctx.records.findById(`estimate:${id}`).lean())?.revision === 2 ? true : undefined,
    );
    const retry = await request(
      sync.url,
      `/qbo/jobs/${failed.queue}/${encodeURIComponent(String(failed.id))}/retry`,
      { method: 'POST', token },
    );
    expect(retry.status).toBe(202);
    await estimatesInQbo(realmId, [id], sync);
    const list = (await request(sync.url, '/qbo/jobs/failed', { token })).body.result as Array<
      Record<string, string>
    >;
    expect(list.find((j) => j.recordId === id)).toBeUndefined();
    expect((await request(sync.url, '/qbo/jobs/qbo-sync/nope/retry', { method: 'POST', token })).status).toBe(
      404,
    );
  });
});
