import {
  CompanyUpserted,
  EstimateSubmitted,
  ProductUpserted,
  QboRecordSynced,
  UserCreated,
} from '@decor/contracts';
import { eventually, mailTo, RUN_ID, topicEvents } from '@decor/kit/testing';
import { nextDocNumber } from './fixtures';
import {
  connect,
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

describe('syncing records to QuickBooks', () => {
  let sync: Sync;
  let realmId: string;

  beforeAll(async () => {
    realmId = await newRealm('Sync Co');
    sync = await startSync();
    expect((await connect(sync, realmId)).status).toBe(200);
  });
  afterAll(() => stopAndClean(sync));

  const customerEvent = (
    userId: string,
    companyId: string,
    name: string,
    email = `${name.toLowerCase()}@decor.example`,
  ) => ({
    userId,
    email,
    displayName: `${name} Rivera`,
    permissions: 'customer',
    companyId,
    ownCompany: `${name} Events`,
    firstName: name,
    lastName: 'Rivera',
  });

  async function customerInQbo(displayName: string) {
    return eventually(
      async () => (await qboRecords(realmId, 'Customer')).find((c) => c.DisplayName === displayName),
      30_000,
      displayName,
    );
  }

  it('creates a customer as a Job under its company, waiting for the company when it comes second', async () => {
    const companyId = newId();
    const userId = newId();
    await publish(sync, UserCreated, userId, customerEvent(userId, companyId, 'Ada'));
    // The customer cannot go first: its company is not in QuickBooks (not even known) yet.
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      (await qboRecords(realmId, 'Customer')).find((c) => c.DisplayName === 'Ada Rivera'),
    ).toBeUndefined();

    await publish(sync, CompanyUpserted, companyId, {
      companyId,
      name: 'Ada Events',
      displayName: 'Ada Events',
      street: '1 Main St',
      city: 'Portland',
      state: 'OR',
      zipCode: '97205',
      phone: '503-555-0100',
    });
    const company = await customerInQbo('Ada Events');
    const customer = await customerInQbo('Ada Rivera');
    expect(company).toMatchObject({ CompanyName: 'Ada Events', BillAddr: { City: 'Portland' } });
    expect(customer).toMatchObject({
      Job: true,
      ParentRef: { value: company.Id },
      GivenName: 'Ada',
      FamilyName: 'Rivera',
      PrimaryEmailAddr: { Address: 'ada@decor.example' },
      FullyQualifiedName: 'Ada Events:Ada Rivera',
    });

    // The owning services learn the QuickBooks ids from events.
    const synced = await topicEvents(sync.ctx.kafka, `${RUN_ID}.accounting`, (events) =>
      [companyId, userId].every((id) =>
        events.some(
          (e) => e.type === QboRecordSynced.type && (e.payload as { recordId: string }).recordId === id,
        ),
      ),
    );
    const forCustomer = synced.find((e) => (e.payload as { recordId: string }).recordId === userId);
    expect(forCustomer?.payload).toMatchObject({ kind: 'customer', qboId: customer.Id, action: 'created' });
  });

  it('never makes a second document for the same job, even when its outcome was lost (requestid replay)', async () => {
    const companyId = newId();
    await publish(sync, CompanyUpserted, companyId, {
      companyId,
      name: 'Replay Events',
      displayName: 'Replay Events',
    });
    await customerInQbo('Replay Events');
    const rec = await eventually(async () => {
      const r = await sync.ctx.records.findById(`company:${companyId}`).lean();
      return r?.qboId ? r : undefined;
    });
    // As if the worker died after QuickBooks created it and before the outcome was stored. The record
    // is stored before the worker lets go of the job, and a held job cannot be removed: wait for it.
    const jobId = `qbo.company.${companyId}.upsert.r${rec.revision}`;
    await eventually(async () =>
      (await sync.ctx.syncQueue.getJobState(jobId)) === 'completed' ? true : undefined,
    );
    const job = await sync.ctx.syncQueue.getJob(jobId);
    expect(job).toBeDefined();
    await job?.remove();
    await sync.ctx.records.updateOne(
      { _id: rec._id },
      { $set: { qboId: null, syncToken: null, syncedHash: null, syncedRevision: -1 } },
    );
    const replaysBefore = (await qboStats(realmId)).replays;
    await sync.ctx.syncQueue.add('upsert', job?.data as never, { jobId: job?.id });

    await eventually(async () =>
      (await sync.ctx.records.findById(rec._id).lean())?.qboId ? true : undefined,
    );
    expect((await sync.ctx.records.findById(rec._id).lean())?.qboId).toBe(rec.qboId);
    expect(
      (await qboRecords(realmId, 'Customer')).filter((c) => c.DisplayName === 'Replay Events'),
    ).toHaveLength(1);
    expect((await qboStats(realmId)).replays).toBe(replaysBefore + 1);
  });

  it('does not write a record again when its content did not change', async () => {
    const companyId = newId();
    const payload = { companyId, name: 'Same Events', displayName: 'Same Events', city: 'Salem' };
    await publish(sync, CompanyUpserted, companyId, payload);
    const first = await customerInQbo('Same Events');
    await publish(sync, CompanyUpserted, companyId, payload);
    await eventually(async () =>
      (await sync.ctx.records.findById(`company:${companyId}`).lean())?.syncedRevision === 2
        ? true
        : undefined,
    );
    const after = (await qboRecords(realmId, 'Customer')).find((c) => c.DisplayName === 'Same Events');
    expect(after?.SyncToken).toBe(first.SyncToken);

    await publish(sync, CompanyUpserted, companyId, { ...payload, city: 'Eugene' });
    await eventually(async () => {
      const c = (await qboRecords(realmId, 'Customer')).find((x) => x.DisplayName === 'Same Events');
      return c?.BillAddr?.City === 'Eugene' ? c : undefined;
    });
  });

  it('sends an estimate on staff request: the §9 document lands, the estimate event says so, and it can be e-mailed', async () => {
    const companyId = newId();
    const userId = newId();
    await publish(sync, CompanyUpserted, companyId, {
      companyId,
      name: 'Bea Events',
      displayName: 'Bea Events',
    });
    await publish(sync, UserCreated, userId, customerEvent(userId, companyId, 'Bea'));
    const sku = `BAR-${newId().slice(0, 6)}`;
    await publish(sync, ProductUpserted, sku, {
      sku,
      name: 'Bar Front',
      description: 'A white bar front',
      priceCents: 50_000,
      quantity: 4,
      category: 'BARS',
      subcategory: 'Bar Front',
      images: [],
    });
    const estimateId = newId();
    await publish(sync, EstimateSubmitted, estimateId, {
      estimateId,
      docNumber: nextDocNumber(),
      status: 'Pending',
      userId,
      cartId: newId(),
      customer: { email: 'bea@decor.example', displayName: 'Bea Rivera', companyName: 'Bea Events' },
      details: {
        groupName: 'Spring Gala',
        eventDate: '2027-04-02',
        location: 'Harbor Hall',
        eventStartTime: '17:00',
        eventEndTime: '23:30',
      },
      lines: [
        {
          productId: sku,
          name: 'Bar Front',
          description: 'A white bar front',
          qty: 2,
          priceCents: 50_000,
          totalCents: 100_000,
        },
      ],
      subtotalCents: 100_000,
      truckingCents: 15_000,
      taxCents: 9_315,
      totalCents: 124_315,
      submittedAt: new Date().toISOString(),
    });
    const token = staffToken(sync);
    const sent = await eventually(async () => {
      const a = await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: estimateId } });
      return a.status === 404 ? undefined : a;
    });
    expect(sent.status).toBe(202);
    expect(sent.body.result.jobId).toContain(estimateId);

    const estimate = await eventually(
      async () =>
        (await qboRecords(realmId, 'Estimate')).find((e) =>
          e.CustomField?.some((f: { StringValue?: string }) => f.StringValue === 'Spring Gala'),
        ),
      30_000,
      'the estimate in QuickBooks',
    );
    expect(estimate.ExpirationDate).toBe('2027-04-02');
    expect(estimate.TxnTaxDetail.TotalTax).toBeCloseTo(93.15, 2);
    const amounts = estimate.Line.filter(
      (l: { DetailType: string }) => l.DetailType === 'SalesItemLineDetail',
    ).map((l: { Amount: number }) => l.Amount);
    expect(amounts).toEqual([1000, 150, 150]);
    expect(estimate.CustomerMemo.value).toMatch(/labor/i);

    // In QuickBooks now: a second send is the lifecycle's refusal (no second job, no second document).
    const again = await request(sync.url, '/qbo/estimate', {
      method: 'POST',
      token,
      json: { id: estimateId },
    });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This order is already in Quick Books.');

    const landed = await topicEvents(sync.ctx.kafka, `${RUN_ID}.accounting`, (events) =>
      events.some((e) => (e.payload as { recordId?: string }).recordId === estimateId),
    );
    expect(
      landed.find((e) => (e.payload as { recordId?: string }).recordId === estimateId)?.payload,
    ).toMatchObject({
      kind: 'estimate',
      qboId: estimate.Id,
      action: 'created',
    });

    const mailbox = `bea+${newId().slice(0, 6)}@decor.example`;
    const send = await request(sync.url, `/qbo/send/estimate/${estimate.Id}`, {
      method: 'POST',
      token,
      json: { email: mailbox },
    });
    expect(send.status).toBe(202);
    await eventually(async () => {
      const e = (await qboRecords(realmId, 'Estimate')).find((x) => x.Id === estimate.Id);
      return e?.EmailStatus === 'EmailSent' ? e : undefined;
    });
    const mails = await eventually(async () =>
      (await mailTo(mailbox)).length > 0 ? mailTo(mailbox) : undefined,
    );
    expect(mails[0]?.Subject).toContain(estimate.DocNumber);
  });

  it('answers 404 for an unknown record and 400 for a malformed request', async () => {
    const token = staffToken(sync);
    expect(
      (await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: { id: newId() } })).status,
    ).toBe(404);
    expect((await request(sync.url, '/qbo/estimate', { method: 'POST', token, json: {} })).status).toBe(400);
    expect(
      (await request(sync.url, '/qbo/send/estimate/999999', { method: 'POST', token, json: { email: 'x' } }))
        .status,
    ).toBe(400);
  });
});
