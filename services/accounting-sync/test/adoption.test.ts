/**
 * Records imported from QuickBooks arrive with their qboId (UserCreated / CompanyUpserted): the sync
 * adopts those QuickBooks records instead of creating second ones, writes nothing while the content is
 * what QuickBooks has, and updates them on a later change (UserUpdated, CompanyUpserted). A deleted
 * site record stops counting as on the site (the import listing); QuickBooks keeps it.
 */
import { CompanyDeleted, CompanyUpserted, UserCreated, UserDeleted, UserUpdated } from '@decor/contracts';
import { consumerCaughtUp, eventually, RUN_ID } from '@decor/kit/testing';
import type { ImportCompany, ImportCustomer } from '../src/domain/import-listing';
import { syncJobId } from '../src/jobs/sync-queue';
import {
  connect,
  emulatorCall,
  newId,
  publish,
  type QboRecord,
  qboRecords,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

let sync: Sync;
let realmId: string;
let admin: string;

beforeAll(async () => {
  sync = await startSync();
  ({ realmId } = await emulatorCall<{ realmId: string }>('/__emulator/companies', {
    method: 'POST',
    json: { name: `Adoption ${RUN_ID}`, demo: true },
  }));
  admin = staffToken(sync);
  const connected = await connect(sync, realmId, admin);
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
});
afterAll(() => stopAndClean(sync));

const customers = () => qboRecords(realmId, 'Customer');
const byName = async (displayName: string) =>
  (await customers()).find((c) => c.DisplayName === displayName) as QboRecord;

/** The outcome of the upsert job of this revision of the record, once it ran. */
const outcome = (kind: 'company' | 'customer', recordId: string, revision: number) =>
  eventually(
    async () => {
      const id = syncJobId({ kind, recordId, action: 'upsert', revision });
      if ((await sync.ctx.syncQueue.getJobState(id)) !== 'completed') return undefined;
      // Read once it has completed: a job read while it still ran has no return value ('null').
      return String((await sync.ctx.syncQueue.getJob(id))?.returnvalue);
    },
    30_000,
    `${kind} ${recordId} r${revision} synced`,
  );

const listing = async () =>
  (await request(sync.url, '/qbo/users', { token: admin })).body.result as {
    companies: ImportCompany[];
    customers: ImportCustomer[];
  };

const companyPayload = (companyId: string, qbo: QboRecord, phone: string) => ({
  companyId,
  name: String(qbo.CompanyName),
  displayName: String(qbo.CompanyName),
  street: String(qbo.BillAddr.Line1),
  city: String(qbo.BillAddr.City),
  state: String(qbo.BillAddr.CountrySubDivisionCode),
  zipCode: String(qbo.BillAddr.PostalCode),
  phone,
  qboId: String(qbo.Id),
});

describe('imported records', () => {
  it('a company and its customer adopt their QuickBooks records: nothing created, nothing written until they change', async () => {
    const count = (await customers()).length;
    const sunset = await byName('Sunset Gala Planners');
    const ava = await byName('Ava Thompson');
    const companyId = newId();
    // As imported: the site's fields are QuickBooks' ones.
    await publish(
      sync,
      CompanyUpserted,
      companyId,
      companyPayload(companyId, sunset, String(sunset.PrimaryPhone.FreeFormNumber)),
    );
    expect(await outcome('company', companyId, 1)).toBe('unchanged');
    const userId = newId();
    const avaEvent = {
      userId,
      email: String(ava.PrimaryEmailAddr.Address),
      displayName: String(ava.DisplayName),
      permissions: 'customer',
      companyId,
      ownCompany: String(sunset.CompanyName),
      firstName: String(ava.GivenName),
      lastName: String(ava.FamilyName),
      phone: String(ava.PrimaryPhone.FreeFormNumber),
      qboId: String(ava.Id),
    };
    await publish(sync, UserCreated, userId, avaEvent);
    const first = await outcome('customer', userId, 1);
    const records = await sync.ctx.records.find({ recordId: { $in: [companyId, userId] } }).lean();
    expect(Object.fromEntries(records.map((r) => [r.kind, r.qboId]))).toEqual({
      company: String(sunset.Id),
      customer: String(ava.Id),
    });
    expect((await customers()).length).toBe(count);
    expect((await byName('Sunset Gala Planners')).SyncToken).toBe(sunset.SyncToken);
    expect(first).toBe('unchanged');
    expect((await byName('Ava Thompson')).SyncToken).toBe(ava.SyncToken);

    const l = await listing();
    expect(l.companies.find((c) => c.qboId === String(sunset.Id))).toMatchObject({
      onSite: true,
      siteId: companyId,
    });
    expect(l.customers.find((c) => c.qboId === String(ava.Id))).toMatchObject({
      onSite: true,
      siteId: userId,
    });

    // A later change on the site is written to the same QuickBooks records.
    await publish(sync, CompanyUpserted, companyId, companyPayload(companyId, sunset, '(512) 555-0999'));
    expect(await outcome('company', companyId, 2)).toBe('updated');
    const sunsetNow = await byName('Sunset Gala Planners');
    expect(sunsetNow.Id).toBe(sunset.Id);
    expect(sunsetNow.PrimaryPhone.FreeFormNumber).toBe('(512) 555-0999');

    await publish(sync, UserUpdated, userId, { ...avaEvent, active: false, phone: '(512) 555-0777' });
    expect(await outcome('customer', userId, 2)).toBe('updated');
    const avaNow = await byName('Ava Thompson');
    expect(avaNow).toMatchObject({
      Id: ava.Id,
      Active: true,
      PrimaryPhone: { FreeFormNumber: '(512) 555-0777' },
    });
    expect((await customers()).length).toBe(count);
  });

  it('a customer imported before its company reached the sync waits for it, then updates its own record', async () => {
    const harbor = await byName('Harbor Lights Events');
    const nina = await byName('Nina Patel');
    const count = (await customers()).length;
    const companyId = newId();
    const userId = newId();
    await publish(sync, UserCreated, userId, {
      userId,
      email: String(nina.PrimaryEmailAddr.Address),
      displayName: 'Nina Patel',
      permissions: 'customer',
      companyId,
      ownCompany: String(harbor.CompanyName),
      firstName: 'Nina',
      lastName: 'Patel',
      qboId: String(nina.Id),
    });
    await eventually(
      async () => ((await sync.ctx.records.findOne({ recordId: userId }).lean())?.qboId ? true : undefined),
      15_000,
      'the customer stored',
    );
    await publish(
      sync,
      CompanyUpserted,
      companyId,
      companyPayload(companyId, harbor, String(harbor.PrimaryPhone.FreeFormNumber)),
    );
    expect(await outcome('company', companyId, 1)).toBe('unchanged');
    expect(await outcome('customer', userId, 1)).toBe('updated');
    expect((await customers()).length).toBe(count);
    expect((await byName('Nina Patel')).ParentRef).toEqual({ value: String(harbor.Id) });
  });

  it('staff accounts stay out of QuickBooks on update too', async () => {
    const userId = newId();
    await publish(sync, UserUpdated, userId, {
      userId,
      email: `admin-${userId}@decor.example`,
      displayName: 'An Admin',
      permissions: 'admin',
      active: true,
    });
    await publish(sync, UserUpdated, userId, {
      userId,
      email: `admin-${userId}@decor.example`,
      displayName: 'An Admin',
      permissions: 'superadmin',
      active: true,
    });
    await consumerCaughtUp(sync.ctx, 'users', 'user');
    expect(await sync.ctx.records.countDocuments({ recordId: userId })).toBe(0);
  });

  it('deleted on the site: no longer marked as on the site, still in QuickBooks', async () => {
    const blue = await byName('Blue Harbor Weddings');
    const chloe = await byName('Chloe Martinez');
    const companyId = newId();
    const userId = newId();
    await publish(
      sync,
      CompanyUpserted,
      companyId,
      companyPayload(companyId, blue, String(blue.PrimaryPhone.FreeFormNumber)),
    );
    await publish(sync, UserCreated, userId, {
      userId,
      email: String(chloe.PrimaryEmailAddr.Address),
      displayName: 'Chloe Martinez',
      permissions: 'customer',
      companyId,
      firstName: 'Chloe',
      lastName: 'Martinez',
      qboId: String(chloe.Id),
    });
    await outcome('company', companyId, 1);
    await outcome('customer', userId, 1);
    const marked = await listing();
    expect(marked.customers.find((c) => c.qboId === String(chloe.Id))?.onSite).toBe(true);

    const at = new Date().toISOString();
    await publish(sync, UserDeleted, userId, {
      userId,
      email: String(chloe.PrimaryEmailAddr.Address),
      permissions: 'customer',
      at,
      qboId: String(chloe.Id),
    });
    await publish(sync, CompanyDeleted, companyId, {
      companyId,
      name: String(blue.CompanyName),
      qboId: String(blue.Id),
    });
    const after = await eventually(
      async () => {
        const l = await listing();
        const c = l.companies.find((x) => x.qboId === String(blue.Id));
        return c && !c.onSite && !l.customers.find((x) => x.qboId === String(chloe.Id))?.onSite
          ? l
          : undefined;
      },
      15_000,
      'both unmarked',
    );
    expect(after.customers.find((c) => c.qboId === String(chloe.Id))).toMatchObject({
      onSite: false,
      siteId: null,
      parentOnSite: false,
      selectable: false,
      reason: 'Please import the parent company first',
    });
    expect((await byName('Chloe Martinez')).Active).toBe(true);
    expect((await byName('Blue Harbor Weddings')).Active).toBe(true);
  });
});
