/**
 * GET /qbo/users, the Import User dialog's listing (spec §2, §5, §7), against the QuickBooks emulator:
 * the demo company's companies and customers with the import rules applied, records already on the
 * site marked (from this service's own sync records), search, the on-site filter, paging, the copy of
 * QuickBooks' list in memory, the role matrix, and the expired session.
 */

import {
  connect,
  emulatorCall,
  type ImportCompany,
  type ImportCustomer,
  newId,
  publish,
  QBO_TEXTS,
  qboRecords,
  qboStats,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from '@decor/accounting-sync/testing';
import { CompanyUpserted, IMPORT_TEXTS, QBO_SESSION_EXPIRED_HEADER, UserCreated } from '@decor/contracts';
import { type StartedService, startService } from '@decor/kit';
import { eventually, RUN_ID, serviceEnv } from '@decor/kit/testing';
import { loadUserConfig, type UserContext, userService } from '@decor/user';

interface Listing {
  companies: ImportCompany[];
  customers: ImportCustomer[];
}

let sync: Sync;
let realmId: string;
let admin: string;
let user: StartedService<UserContext> | undefined;

const listing = async (token = admin): Promise<Listing> => {
  const answer = await request(sync.url, '/qbo/users', { token });
  if (answer.status !== 200)
    throw new Error(`GET /qbo/users answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.result as Listing;
};
const company = (l: Listing, displayName: string) => l.companies.find((c) => c.displayName === displayName);
const customer = (l: Listing, displayName: string) => l.customers.find((c) => c.displayName === displayName);

/** Waits until this service has the record in QuickBooks (its qboId stored) and returns that id. */
const syncedQboId = (kind: 'company' | 'customer', recordId: string) =>
  eventually(
    async () =>
      (await sync.ctx.records.findOne({ kind, recordId, qboId: { $ne: null } }, { qboId: 1 }).lean())
        ?.qboId ?? undefined,
    30_000,
    `${kind} ${recordId} in QuickBooks`,
  );

beforeAll(async () => {
  sync = await startSync();
  // A copy of the demo company of this file alone (the one `npm start` shows, with every import case).
  ({ realmId } = await emulatorCall<{ realmId: string }>('/__emulator/companies', {
    method: 'POST',
    json: { name: `Import ${RUN_ID}`, demo: true },
  }));
  // The test's own creates go well past QuickBooks' 500/min (the service's limiter is set to 30,000).
  await emulatorCall(`/__emulator/realms/${realmId}/settings`, {
    method: 'PUT',
    json: { rateLimitPerMinute: 60_000 },
  });
  admin = staffToken(sync);
  const connected = await connect(sync, realmId, admin);
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}`);
});
afterAll(async () => {
  if (user) {
    await user.ctx.connection.dropDatabase();
    await user.shutdown('test over');
  }
  await stopAndClean(sync);
});

describe('GET /qbo/users', () => {
  it('answers visitors 401, customers 403, admins and superadmins 200', async () => {
    expect((await request(sync.url, '/qbo/users')).status).toBe(401);
    const customerToken = sync.app.signToken({
      id: newId(),
      permissions: 'customer',
      email: 'c@decor.example',
    });
    const asCustomer = await request(sync.url, '/qbo/users', { token: customerToken });
    expect(asCustomer.status).toBe(403);
    expect(asCustomer.body.message).toEqual(expect.any(String));
    expect((await request(sync.url, '/qbo/users', { token: admin })).status).toBe(200);
    expect(
      (await request(sync.url, '/qbo/users', { token: staffToken(sync, newId(), 'superadmin') })).status,
    ).toBe(200);
  });

  it('lists every active QuickBooks customer of the company: top-level ones as companies, Jobs as customers, with the §5 rules', async () => {
    const all = await qboRecords(realmId, 'Customer');
    const l = await listing();
    expect(l.companies.length + l.customers.length).toBe(all.filter((c) => c.Active !== false).length);
    expect(l.companies.map((c) => c.qboId).sort()).toEqual(
      all
        .filter((c) => !c.ParentRef)
        .map((c) => String(c.Id))
        .sort(),
    );

    const sunset = all.find((c) => c.DisplayName === 'Sunset Gala Planners');
    expect(company(l, 'Sunset Gala Planners')).toEqual({
      qboId: String(sunset?.Id),
      displayName: 'Sunset Gala Planners',
      name: 'Sunset Gala Planners',
      email: 'office@sunsetgala.example',
      phone: '(512) 555-0187',
      street: '410 Congress Ave',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
      onSite: false,
      siteId: null,
      selectable: true,
      reason: null,
    });
    // Companies without a name (no CompanyName): not selectable.
    for (const name of ['Oak Hollow Barn', 'Ralph Nguyen'])
      expect(company(l, name)).toMatchObject({
        name: null,
        selectable: false,
        reason: IMPORT_TEXTS.companyWithoutName,
      });

    // A customer whose company is not on the site: 'Please import the parent company first'.
    expect(customer(l, 'Ava Thompson')).toMatchObject({
      email: 'ava.thompson@sunsetgala.example',
      firstName: 'Ava',
      lastName: 'Thompson',
      company: 'Sunset Gala Planners',
      parentQboId: String(sunset?.Id),
      parentName: 'Sunset Gala Planners',
      parentOnSite: false,
      parentSiteId: null,
      onSite: false,
      selectable: false,
      reason: 'Please import the parent company first',
    });
    // Customers without an e-mail: not selectable, update the user in QuickBooks.
    for (const name of ['Lena Brooks', 'Omar Haddad'])
      expect(customer(l, name)).toMatchObject({
        email: null,
        selectable: false,
        reason: IMPORT_TEXTS.customerWithoutEmail,
      });
    expect(IMPORT_TEXTS.customerWithoutEmail).toMatch(/update the user in QuickBooks/);
    // Nothing is selectable before anything is on the site but companies with a name.
    expect(l.customers.filter((c) => c.selectable)).toEqual([]);
  });

  it("marks what is on the site from this service's own records, and a customer under a site company becomes selectable", async () => {
    const companyId = newId();
    const name = `Site Co ${RUN_ID}`;
    await publish(sync, CompanyUpserted, companyId, {
      companyId,
      name,
      displayName: name,
      street: '1 Main St',
      city: 'Austin',
      state: 'TX',
      zipCode: '78701',
    });
    const companyQboId = await syncedQboId('company', companyId);
    const userId = newId();
    await publish(sync, UserCreated, userId, {
      userId,
      email: `site-${userId}@decor.example`,
      displayName: `Site Customer ${RUN_ID}`,
      permissions: 'customer',
      companyId,
      ownCompany: name,
      firstName: 'Site',
      lastName: 'Customer',
    });
    const userQboId = await syncedQboId('customer', userId);
    // Someone adds a customer under that company in QuickBooks only (not on the site yet).
    const onlyInQbo = await sync.ctx.api.create(
      'Customer',
      {
        DisplayName: `QuickBooks Only ${RUN_ID}`,
        GivenName: 'Quinn',
        FamilyName: 'Books',
        PrimaryEmailAddr: { Address: `quinn-${RUN_ID}@decor.example` },
        Job: true,
        ParentRef: { value: companyQboId },
      },
      `import-test-${RUN_ID}`,
    );

    const l = await listing();
    expect(company(l, name)).toMatchObject({
      qboId: companyQboId,
      onSite: true,
      siteId: companyId,
      selectable: false,
      reason: IMPORT_TEXTS.onSite,
    });
    expect(customer(l, `Site Customer ${RUN_ID}`)).toMatchObject({
      qboId: userQboId,
      onSite: true,
      siteId: userId,
      parentSiteId: companyId,
      selectable: false,
      reason: IMPORT_TEXTS.onSite,
    });
    expect(customer(l, `QuickBooks Only ${RUN_ID}`)).toEqual({
      qboId: String(onlyInQbo.Id),
      displayName: `QuickBooks Only ${RUN_ID}`,
      firstName: 'Quinn',
      lastName: 'Books',
      email: `quinn-${RUN_ID}@decor.example`,
      phone: null,
      company: name,
      parentQboId: companyQboId,
      parentName: name,
      parentOnSite: true,
      parentSiteId: companyId,
      street: null,
      city: null,
      state: null,
      zipCode: null,
      onSite: false,
      siteId: null,
      selectable: true,
      reason: null,
    });
  });

  it('pages through QuickBooks (1000 a query) when the company has more customers than one page', async () => {
    const have = (await qboRecords(realmId, 'Customer')).length;
    const parent = await sync.ctx.api.create(
      'Customer',
      { DisplayName: `Big Co ${RUN_ID}`, CompanyName: 'Big Co' },
      `big-${RUN_ID}`,
    );
    const missing = Array.from({ length: 1_001 - have }, (_, i) => i);
    for (let i = 0; i < missing.length; i += 25)
      await Promise.all(
        missing
          .slice(i, i + 25)
          .map((n) =>
            sync.ctx.api.create(
              'Customer',
              { DisplayName: `Many ${n} ${RUN_ID}`, Job: true, ParentRef: { value: String(parent.Id) } },
              `many-${n}-${RUN_ID}`,
            ),
          ),
      );
    const all = await qboRecords(realmId, 'Customer');
    expect(all.length).toBeGreaterThan(1_000);
    const l = await listing();
    expect(new Set([...l.companies, ...l.customers].map((c) => c.qboId)).size).toBe(all.length);
    expect(customer(l, `Many 0 ${RUN_ID}`)).toMatchObject({
      parentName: `Big Co ${RUN_ID}`,
      company: 'Big Co',
    });
  }, 60_000);

  it('imports a company and then its customer through the user service with their QuickBooks ids; QuickBooks keeps one record each', async () => {
    const token = admin;
    // The user service, as the admin's dialog uses it: POST /company, then POST /user, with the qboId.
    user = await startService(userService(loadUserConfig(await serviceEnv('user'))), { exit: () => {} });
    const list = async () => {
      const answer = await request(sync.url, '/qbo/users', { token });
      expect(answer.status).toBe(200);
      return answer.body.result as Listing;
    };
    // Names on the site differ from QuickBooks' DisplayName, so only the qboId can tell they are the same.
    const hq = await sync.ctx.api.create(
      'Customer',
      { DisplayName: `Gala HQ (${RUN_ID})`, CompanyName: `Gala Headquarters ${RUN_ID}` },
      `hq-${RUN_ID}`,
    );
    const guest = await sync.ctx.api.create(
      'Customer',
      {
        DisplayName: `Guest, Gina (${RUN_ID})`,
        GivenName: 'Gina',
        FamilyName: `Guest${RUN_ID}`,
        PrimaryEmailAddr: { Address: `gina-${RUN_ID}@decor.example` },
        Job: true,
        ParentRef: { value: String(hq.Id) },
      },
      `gina-${RUN_ID}`,
    );
    const before = await list();
    const company = before.companies.find((c) => c.qboId === String(hq.Id)) as ImportCompany;
    expect(company).toMatchObject({ name: `Gala Headquarters ${RUN_ID}`, selectable: true });
    expect(before.customers.find((c) => c.qboId === String(guest.Id))).toMatchObject({
      selectable: false,
      reason: IMPORT_TEXTS.parentNotOnSite,
    });

    const made = await request(user.url, '/company', {
      method: 'POST',
      token,
      json: {
        name: company.name,
        street: '1 Gala Way',
        city: 'Austin',
        state: 'TX',
        zipCode: '78701',
        qboId: company.qboId,
      },
    });
    expect(made.status).toBe(201);
    const companyId = made.body.result.id as string;
    const afterCompany = await eventually(
      async () => {
        const l = await list();
        return l.customers.find((c) => c.qboId === String(guest.Id))?.parentOnSite ? l : undefined;
      },
      30_000,
      'the company on the site',
    );
    expect(afterCompany.companies.find((c) => c.qboId === String(hq.Id))).toMatchObject({
      onSite: true,
      siteId: companyId,
    });
    const gina = afterCompany.customers.find((c) => c.qboId === String(guest.Id)) as ImportCustomer;
    expect(gina).toMatchObject({ parentSiteId: companyId, selectable: true, reason: null });

    const imported = await request(user.url, '/user', {
      method: 'POST',
      token,
      json: {
        permissions: 'customer',
        CompanyId: gina.parentSiteId,
        ownCompany: gina.company,
        email: gina.email,
        firstName: gina.firstName,
        lastName: gina.lastName,
        qboId: gina.qboId,
      },
    });
    expect(imported.status).toBe(201);
    const userId = imported.body.result.id as string;
    await eventually(
      async () => {
        const l = await list();
        return l.customers.find((c) => c.qboId === gina.qboId)?.onSite ? true : undefined;
      },
      30_000,
      'the customer on the site',
    );
    expect((await list()).customers.find((c) => c.qboId === gina.qboId)).toMatchObject({ siteId: userId });

    // Give any sync job time to run, then: still one QuickBooks customer each, under the same ids.
    await eventually(
      async () =>
        (await sync.ctx.syncQueue.getJobCounts('active', 'waiting', 'delayed')).active === 0
          ? true
          : undefined,
      30_000,
      'the sync queue idle',
    );
    const customers = await qboRecords(realmId, 'Customer');
    const named = (part: string) => customers.filter((c) => JSON.stringify(c).includes(part));
    expect(named(`Gala Headquarters ${RUN_ID}`).map((c) => String(c.Id))).toEqual([String(hq.Id)]);
    expect(named(`Guest${RUN_ID}`).map((c) => String(c.Id))).toEqual([String(guest.Id)]);
    const records = await sync.ctx.records.find({ recordId: { $in: [companyId, userId] } }).lean();
    expect(Object.fromEntries(records.map((r) => [r.kind, r.qboId]))).toEqual({
      company: String(hq.Id),
      customer: String(guest.Id),
    });
  }, 120_000);

  describe('search, the on-site filter and paging (staff look through thousands)', () => {
    const page = async (query: string) => {
      const answer = await request(sync.url, `/qbo/users?${query}`, { token: admin });
      expect(answer.status).toBe(200);
      const l = answer.body.result as Listing & { listedAt: string };
      return { ...l, total: Number(answer.headers.get('total_count')), names: names(l) };
    };
    const names = (l: Listing) => [...l.companies, ...l.customers].map((e) => e.displayName);

    it('finds entries by name, company and e-mail: every word, case and accents ignored', async () => {
      // By name (a customer's first or last name, any case).
      expect((await page('search=THOMPSON')).names).toEqual(['Ava Thompson']);
      expect((await page('search=okafor%20daniel')).names).toEqual(['Daniel Okafor']);
      // By company: the company and the customers under it.
      const sunset = await page(`search=${encodeURIComponent('sunset gala')}`);
      expect(sunset.companies.map((c) => c.displayName)).toEqual(['Sunset Gala Planners']);
      expect(sunset.customers.map((c) => c.displayName)).toEqual(['Ava Thompson', 'Marcus Lee']);
      expect(sunset.total).toBe(3);
      // By e-mail (a company's and a customer's).
      expect((await page('search=bookings%40oakhollow')).names).toEqual(['Oak Hollow Barn']);
      expect((await page('search=priya.shah%40')).names).toEqual(['Priya Shah']);
      // Accents typed or not.
      expect((await page(`search=${encodeURIComponent('chloé martínez')}`)).names).toEqual([
        'Chloe Martinez',
      ]);
      // Words must each be found, not across two fields' ends; nothing found is an empty page.
      const none = await page('search=thompson%20zzz');
      expect(none).toMatchObject({ companies: [], customers: [], total: 0 });
    });

    it('hides what is on the site only when asked (the dialog asks by default)', async () => {
      const all = await page(`search=${encodeURIComponent(RUN_ID)}`);
      const onSite = [...all.companies, ...all.customers].filter((e) => e.onSite).map((e) => e.displayName);
      expect(onSite).toEqual(
        expect.arrayContaining([`Site Co ${RUN_ID}`, `Gala HQ (${RUN_ID})`, `Site Customer ${RUN_ID}`]),
      );
      const hidden = await page(`search=${encodeURIComponent(RUN_ID)}&hideOnSite=true`);
      expect(hidden.names).toEqual(all.names.filter((n) => !onSite.includes(n)));
      expect(hidden.names).toContain(`QuickBooks Only ${RUN_ID}`);
      expect(hidden.total).toBe(all.total - onSite.length);
    });

    it('pages companies then customers with total_count; each entry exactly as the whole listing has it (§5 selectable, reason)', async () => {
      // Earlier tests' site records reach this realm through sync jobs: page once they have landed,
      // so the listing holds still while it is walked.
      await eventually(
        async () => {
          const counts = await sync.ctx.syncQueue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
          return Object.values(counts).every((n) => n === 0) || undefined;
        },
        60_000,
        'the sync queue drained',
      );
      const whole = await page('refresh=true');
      expect(whole.total).toBe(whole.companies.length + whole.customers.length);
      const seen: Listing = { companies: [], customers: [] };
      for (let offset = 0; offset < whole.total; offset += 300) {
        const p = await page(`offset=${offset}&limit=300`);
        expect(p.total).toBe(whole.total);
        expect(p.companies.length + p.customers.length).toBe(Math.min(300, whole.total - offset));
        seen.companies.push(...p.companies);
        seen.customers.push(...p.customers);
      }
      expect(seen).toEqual({ companies: whole.companies, customers: whole.customers });
      // A page across the boundary ends the companies and begins the customers.
      const n = whole.companies.length;
      const across = await page(`offset=${n - 2}&limit=4`);
      expect(across.companies).toEqual(whole.companies.slice(-2));
      expect(across.customers).toEqual(whole.customers.slice(0, 2));
      // Past the end: an empty page, the same total.
      expect(await page(`offset=${whole.total}&limit=20`)).toMatchObject({
        companies: [],
        customers: [],
        total: whole.total,
      });
    });

    it('refuses bad parameters with a message', async () => {
      for (const query of ['limit=0', 'limit=5000', 'offset=-1', 'hideOnSite=maybe', 'colour=blue']) {
        const answer = await request(sync.url, `/qbo/users?${query}`, { token: admin });
        expect([query, answer.status]).toEqual([query, 400]);
        expect(answer.body.message).toEqual(expect.any(String));
      }
    });

    it("lists from a recent copy of QuickBooks' list: no QuickBooks call per page; a Customer written by the service or a Refresh reads it again", async () => {
      const first = await page('limit=20&refresh=true');
      const before = (await qboStats(realmId)).requests;
      const again = await page('search=ava&limit=20');
      await page('offset=20&limit=20');
      expect((await qboStats(realmId)).requests).toBe(before);
      expect(again.listedAt).toBe(first.listedAt);

      // Someone adds a customer in QuickBooks itself: listed after a Refresh.
      const name = `Added Elsewhere ${RUN_ID}`;
      await emulatorCall(`/__emulator/realms/${realmId}/records/Customer`, {
        method: 'POST',
        json: { records: [{ DisplayName: name, CompanyName: name }] },
      });
      expect((await page(`search=${encodeURIComponent(name)}`)).total).toBe(0);
      const refreshed = await page(`search=${encodeURIComponent(name)}&refresh=true`);
      expect(refreshed.names).toEqual([name]);
      expect(Date.parse(refreshed.listedAt)).toBeGreaterThan(Date.parse(first.listedAt));

      // A Customer this service writes (as its sync jobs do) is listed at once.
      const made = await sync.ctx.api.create(
        'Customer',
        { DisplayName: `Written Here ${RUN_ID}`, CompanyName: 'Written Here' },
        `written-${RUN_ID}`,
      );
      expect((await page(`search=${encodeURIComponent(`written here ${RUN_ID}`)}`)).companies).toEqual([
        expect.objectContaining({ qboId: String(made.Id), selectable: true, reason: null }),
      ]);
    });
  });

  it('goes through the rate limiter and renews an expired access token on its own', async () => {
    const before = await qboStats(realmId);
    const takes = jest.spyOn(sync.ctx.limiter, 'take');
    await emulatorCall(`/__emulator/realms/${realmId}/expire-access-tokens`, { method: 'POST' });
    expect((await request(sync.url, '/qbo/users?refresh=true', { token: admin })).status).toBe(200);
    expect(takes).toHaveBeenCalledWith(realmId);
    takes.mockRestore();
    expect((await qboStats(realmId)).grants.refresh_token).toBe(before.grants.refresh_token + 1);
  });

  it('answers 503 with a message while QuickBooks is down, and lists again once it is back', async () => {
    await emulatorCall(`/__emulator/realms/${realmId}/faults`, {
      method: 'POST',
      json: { status: 503, count: 1 },
    });
    const down = await request(sync.url, '/qbo/users?refresh=true', { token: admin });
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      message: 'QuickBooks is not answering right now. Please try again in a minute.',
    });
    expect(down.headers.get(QBO_SESSION_EXPIRED_HEADER)).toBeNull();
    expect((await request(sync.url, '/qbo/users?refresh=true', { token: admin })).status).toBe(200);
  });

  it('answers the session-expired 401 when QuickBooks revoked the connection (the site session is unaffected)', async () => {
    await emulatorCall(`/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    // QuickBooks tells of a revocation only when asked: the next read of it (here a Refresh).
    const refused = await request(sync.url, '/qbo/users?refresh=true', { token: admin });
    expect(refused.status).toBe(401);
    expect(refused.headers.get(QBO_SESSION_EXPIRED_HEADER)).toBe('true');
    expect(refused.headers.get('expiredtoken')).toBeNull();
    expect(refused.body).toEqual({ message: QBO_TEXTS.sessionExpired });
    expect(QBO_TEXTS.sessionExpired).toBe(
      'Your session with QuickBooks has expired, and the request was not completed!',
    );
    // And again once the connection is known to be lost (no call to QuickBooks at all, nor the copy).
    const again = await request(sync.url, '/qbo/users', { token: admin });
    expect(again.status).toBe(401);
    expect(again.headers.get(QBO_SESSION_EXPIRED_HEADER)).toBe('true');
  });
});
