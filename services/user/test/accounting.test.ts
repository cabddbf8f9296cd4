/** Staff sign-in sends staff to QuickBooks while it is not connected; qboIds come from accounting-sync. */
import { CompanyUpserted, QboConnectionChanged, QboRecordSynced, verifyConnectState } from '@decor/contracts';
import { newEvent, publishEnvelopes } from '@decor/kit';
import { consumerCaughtUp, eventually, RUN_ID } from '@decor/kit/testing';
import {
  createUser,
  signIn,
  startUserService,
  stopAndClean,
  type UserServiceUnderTest,
  userEvents,
} from './support';

let service: UserServiceUnderTest;
const AUTHORIZE = 'http://127.0.0.1:4580/connect/oauth2';
beforeAll(async () => {
  service = await startUserService({ QBO_AUTHORIZE_URL: AUTHORIZE, QBO_CLIENT_ID: 'the-app' });
});
afterAll(() => stopAndClean(service));

async function publish(...events: ReturnType<typeof newEvent>[]) {
  await publishEnvelopes(service.ctx.publisher.producer, RUN_ID, events);
  await consumerCaughtUp(service.ctx, 'accounting', 'accounting');
}

const connection = (connected: boolean) =>
  newEvent(QboConnectionChanged, {
    aggregateId: 'quickbooks',
    correlationId: 'test',
    payload: {
      connected,
      realmId: connected ? '123' : null,
      companyName: null,
      reason: connected ? 'connected' : 'revoked',
    },
  });

describe('the QuickBooks redirect at staff sign-in', () => {
  it('gives staff the authorize URL with a state bound to them while QuickBooks is not connected; never customers', async () => {
    const admin = await createUser(service, 'admin', 'pw-admin');
    const answer = await signIn(service.url, admin.email, 'pw-admin');
    expect(answer.status).toBe(200);
    const url = new URL(answer.body.result.redirecturl);
    expect(`${url.origin}${url.pathname}`).toBe(AUTHORIZE);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'the-app',
      redirect_uri: 'http://127.0.0.1:8080/callback',
      response_type: 'code',
      scope: 'com.intuit.quickbooks.accounting',
    });
    const state = verifyConnectState(service.ctx.config.JWT_SECRET, url.searchParams.get('state') ?? '');
    expect(state).toMatchObject({ ok: true, userId: admin.id });

    const customer = await createUser(service, 'customer', 'pw-customer');
    const asCustomer = await signIn(service.url, customer.email, 'pw-customer');
    expect(asCustomer.status).toBe(200);
    expect(asCustomer.body.result.redirecturl).toBeUndefined();
  });

  it('stops redirecting once accounting-sync says it is connected, and starts again when the connection is lost', async () => {
    const admin = await createUser(service, 'superadmin', 'pw-super');
    await publish(connection(true));
    expect((await signIn(service.url, admin.email, 'pw-super')).body.result.redirecturl).toBeUndefined();
    await publish(connection(false));
    expect((await signIn(service.url, admin.email, 'pw-super')).body.result.redirecturl).toMatch(
      /^http:\/\/127\.0\.0\.1:4580\//,
    );
    // A replayed older event changes nothing.
    const stale = connection(true);
    stale.occurredAt = new Date(Date.now() - 3_600_000).toISOString();
    await publish(stale);
    expect((await signIn(service.url, admin.email, 'pw-super')).body.result.redirecturl).toBeDefined();
  });
});

describe('QuickBooks ids', () => {
  it('announces the demo company with its CompanyUpserted and records the qboIds accounting-sync reports', async () => {
    const events = await userEvents(service.ctx.kafka, (all) =>
      all.some((e) => e.type === CompanyUpserted.type),
    );
    const company = events.find((e) => e.type === CompanyUpserted.type);
    expect(company?.payload).toMatchObject({
      name: 'Evergreen Weddings',
      displayName: 'Evergreen Weddings',
      city: 'Portland',
    });
    if (!company) throw new Error('no CompanyUpserted on the user topic');
    const companyId = (company.payload as { companyId: string }).companyId;
    const customer = await createUser(service, 'customer', 'pw');
    await publish(
      ...[
        { kind: 'company' as const, recordId: companyId, qboId: '58' },
        { kind: 'customer' as const, recordId: customer.id, qboId: '59' },
      ].map((p) =>
        newEvent(QboRecordSynced, {
          aggregateId: `${p.kind}:${p.recordId}`,
          correlationId: 'test',
          payload: { ...p, syncToken: '0', action: 'created', revision: 1 },
        }),
      ),
    );
    await eventually(async () =>
      (await service.ctx.companies.findById(companyId).lean())?.qboId === '58' ? true : undefined,
    );
    expect((await service.ctx.users.findById(customer.id).lean())?.qboId).toBe('59');
  });
});
