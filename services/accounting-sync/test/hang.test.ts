/**
 * QuickBooks that takes a request and never answers (the emulator's hang fault): every call is
 * time-boxed below the record lock's lifetime, a timed-out call is a failed attempt retried later,
 * and the requests QuickBooks carries out late, after their client gave up, never make a second
 * document. Each call's time box is its own: its client carries its signal, and nothing is installed
 * on node-quickbooks' process-wide axios.
 */
import path from 'node:path';
import { loadConfig } from '@decor/kit';
import { eventually } from '@decor/kit/testing';
import { accountingSyncConfigSchema } from '../src/config';
import { invokeWith, quickBooksFor } from '../src/qbo/client';
import { MAX_CALL_TIMEOUT_MS, RECORD_LOCK_MS, withQboDeadline } from '../src/qbo/time-box';
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

const CALL_TIMEOUT_MS = 2_000;

/** The request interceptors on the axios that node-quickbooks uses (the one it resolves). */
function quickBooksAxiosInterceptors(): number {
  const from = path.dirname(require.resolve('node-quickbooks'));
  const axios = require(require.resolve('axios', { paths: [from] })) as {
    interceptors: { request: { forEach(fn: () => void): void } };
  };
  let count = 0;
  axios.interceptors.request.forEach(() => {
    count++;
  });
  return count;
}

describe('QuickBooks hangs', () => {
  let sync: Sync;
  let realmId: string;
  let customer: { userId: string; sku: string };
  const hang = (seconds: number) =>
    emulatorCall(`/__emulator/realms/${realmId}/faults`, {
      method: 'POST',
      json: { hangForSeconds: seconds },
    });
  const clear = () => emulatorCall(`/__emulator/realms/${realmId}/faults`, { method: 'DELETE' });

  beforeAll(async () => {
    realmId = await newRealm('Hang Co');
    sync = await startSync({ QBO_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS) });
    expect((await connect(sync, realmId)).status).toBe(200);
    customer = await customerWithProduct(sync, 'Hana');
  });
  afterEach(() => clear());
  afterAll(() => stopAndClean(sync));

  it('refuses a call time-box that would outlive the record lock', () => {
    expect(MAX_CALL_TIMEOUT_MS).toBeLessThan(RECORD_LOCK_MS);
    const env = {
      QBO_CALL_TIMEOUT_MS: String(RECORD_LOCK_MS),
      NODE_ENV: 'test',
      DECOR_ALLOW_DEV_SECRETS: '1',
    };
    expect(() => loadConfig(accountingSyncConfigSchema, env)).toThrow(/QBO_CALL_TIMEOUT_MS/);
    expect(
      loadConfig(accountingSyncConfigSchema, { NODE_ENV: 'test', DECOR_ALLOW_DEV_SECRETS: '1' })
        .QBO_CALL_TIMEOUT_MS,
    ).toBe(20_000);
  });

  it('times a hung write out, retries it, and after the hang QuickBooks holds exactly one document', async () => {
    // A first estimate warms up what an estimate needs (its customer, the Trucking and Labor
    // items), so the hung request of the second one is its own create.
    const [warm, id] = await submittedEstimates(sync, customer.userId, customer.sku, 2);
    const token = staffToken(sync);
    const send = (recordId: string | undefined) =>
      request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: recordId } });
    expect((await send(warm)).status).toBe(202);
    await eventually(
      async () => (await sync.ctx.records.findById(`estimate:${warm}`).lean())?.qboId ?? undefined,
    );
    const before = await qboStats(realmId);

    await hang(300);
    const sentAt = Date.now();
    const answer = await send(id);
    expect(answer.status).toBe(202);
    const jobId = answer.body.result.jobId as string;
    const failedOnce = await eventually(async () => {
      const job = await sync.ctx.syncQueue.getJob(jobId);
      return job && job.attemptsMade >= 1 ? job : undefined;
    }, 30_000);
    // Not the hang's 300 s: the call's own 2 s (generous slack for a loaded machine).
    expect(Date.now() - sentAt).toBeLessThan(20_000);
    expect(failedOnce.failedReason).toBe(`QuickBooks did not answer within ${CALL_TIMEOUT_MS / 1000}.0 s`);
    // …and is retried, not failed for good.
    await eventually(
      async () => ((await sync.ctx.syncQueue.getJob(jobId))?.attemptsMade ?? 0) >= 2 || undefined,
    );
    expect(await sync.ctx.syncQueue.getFailedCount()).toBe(0);
    expect((await qboRecords(realmId, 'Estimate')).length).toBe(before.documents.Estimate);

    await clear();
    const rec = await eventually(async () => {
      const r = await sync.ctx.records.findById(`estimate:${id}`).lean();
      return r?.qboId ? r : undefined;
    }, 60_000);
    const docNumber = (rec.data as { docNumber: string }).docNumber;
    const estimates = (await qboRecords(realmId, 'Estimate')).filter((e) => e.DocNumber === docNumber);
    expect(estimates.map((e) => String(e.Id))).toEqual([rec.qboId]);
    const after = await qboStats(realmId);
    expect(after.documents.Estimate).toBe((before.documents.Estimate ?? 0) + 1);
    // The abandoned creates were carried out once the hang was over: one wrote, the rest replayed.
    expect(after.hung - before.hung).toBeGreaterThanOrEqual(2);
    expect(after.replays - before.replays).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('ends a call at the record lock’s deadline, and sends none once no time is left', async () => {
    await hang(300);
    const started = Date.now();
    await expect(withQboDeadline(Date.now() + 500, () => sync.ctx.api.query('Item'))).rejects.toThrow(
      /^QuickBooks did not answer within 0\.\d s$/,
    );
    expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT_MS);
    const requests = (await qboStats(realmId)).hung;
    await expect(withQboDeadline(Date.now() - 1, () => sync.ctx.api.query('Item'))).rejects.toThrow(
      'no time left for a QuickBooks call before the record lock ends',
    );
    expect((await qboStats(realmId)).hung).toBe(requests);
  }, 30_000);

  it('gives each of several concurrent calls its own deadline, with no interceptor on node-quickbooks’ axios', async () => {
    expect(quickBooksAxiosInterceptors()).toBe(0);
    const session = await sync.ctx.sessions.current();
    /** getCompanyInfo on a client of its own: what it came to, and after how long. */
    const companyInfo = async (timeoutMs: number) => {
      const started = Date.now();
      const outcome = await invokeWith(
        quickBooksFor(sync.ctx.config, session),
        (qb, done) => qb.getCompanyInfo(realmId, done as never),
        timeoutMs,
      ).then(
        (info) => `answered: ${(info as { CompanyName: string }).CompanyName}`,
        (err: Error) => err.message,
      );
      return { outcome, ms: Date.now() - started };
    };

    await hang(3);
    const [atLockDeadline, ownTimeout, patient] = await Promise.all([
      withQboDeadline(Date.now() + 500, () => companyInfo(20_000)),
      companyInfo(1_200),
      companyInfo(20_000),
    ]);
    // The record lock's deadline ends the first call only…
    expect(atLockDeadline.outcome).toMatch(/^QuickBooks did not answer within 0\.[45] s$/);
    // …the second ends at its own 1.2 s, not at the first's deadline…
    expect(ownTimeout.outcome).toBe('QuickBooks did not answer within 1.2 s');
    expect(atLockDeadline.ms).toBeLessThan(ownTimeout.ms);
    expect(ownTimeout.ms).toBeGreaterThanOrEqual(1_150);
    // …and the third, aborted by neither, has its answer once the 3 s hang is over.
    expect(patient.outcome).toBe('answered: Hang Co');
    expect(patient.ms).toBeGreaterThanOrEqual(2_000);
    expect(quickBooksAxiosInterceptors()).toBe(0);
  }, 30_000);
});
