import { eventually } from '@decor/kit/testing';
import { customerWithProduct, submittedEstimates } from './fixtures';
import {
  connect,
  emulatorCall,
  newRealm,
  qboRecords,
  qboStats,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

const DOWN_SECONDS = 60;

describe('a QuickBooks outage', () => {
  let sync: Sync;
  let realmId: string;

  beforeAll(async () => {
    realmId = await newRealm('Outage Co');
    sync = await startSync();
    expect((await connect(sync, realmId)).status).toBe(200);
  });
  afterAll(() => stopAndClean(sync));

  it(`lands 100 estimates sent while QuickBooks is down for ${DOWN_SECONDS} s exactly once after it is back`, async () => {
    const { userId, sku } = await customerWithProduct(sync, 'Otto');
    const ids = await submittedEstimates(sync, userId, sku, 100);
    await emulatorCall(`/__emulator/realms/${realmId}/faults`, {
      method: 'POST',
      json: { downForSeconds: DOWN_SECONDS },
    });
    const downSince = Date.now();
    const token = staffToken(sync);
    for (const id of ids) {
      const answer = await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id } });
      expect(answer.status).toBe(202);
    }

    // While it is down nothing lands and nothing fails for good: the jobs keep retrying.
    await new Promise((r) => setTimeout(r, 20_000));
    expect(await sync.ctx.records.countDocuments({ recordId: { $in: ids }, qboId: { $ne: null } })).toBe(0);
    expect(await sync.ctx.syncQueue.getFailedCount()).toBe(0);
    expect((await qboStats(realmId)).faulted).toBeGreaterThan(100);

    await eventually(
      async () =>
        (await sync.ctx.records.countDocuments({ recordId: { $in: ids }, qboId: { $ne: null } })) ===
        ids.length
          ? true
          : undefined,
      DOWN_SECONDS * 1000 + 60_000,
      'every estimate in QuickBooks',
    );
    expect(Date.now() - downSince).toBeGreaterThanOrEqual(DOWN_SECONDS * 1000);
    const qboIds = (await sync.ctx.records.find({ recordId: { $in: ids } }, { qboId: 1 }).lean()).map(
      (r) => r.qboId,
    );
    const estimates = (await qboRecords(realmId, 'Estimate')).filter((e) => qboIds.includes(String(e.Id)));
    expect(estimates).toHaveLength(100);
    expect((await qboRecords(realmId, 'Estimate')).length).toBe(100);
    expect(await sync.ctx.syncQueue.getFailedCount()).toBe(0);
  }, 200_000);
});
