/**
 * Contract test: every node-quickbooks call of the table in QUICKBOOKS-NOTES.md §6, as the
 * accounting-sync service makes them, against the emulator. Each describe connects a company of
 * its own (POST /__emulator/companies + the OAuth code flow), so throttling and injected faults
 * never reach another test file.
 */
import QuickBooks from 'node-quickbooks';
import { testEndpoints } from './endpoints';

const { qbo, mailApiUrl } = testEndpoints();
const redirectUri = 'http://127.0.0.1:9/callback';

// Before any `new QuickBooks`; never setOauthVersion (it fetches Intuit's discovery document).
QuickBooks.V3_ENDPOINT_BASE_URL = `${qbo.url}/v3/company/`;
QuickBooks.TOKEN_URL = `${qbo.url}/oauth2/v1/tokens/bearer`;
QuickBooks.REVOKE_URL = `${qbo.url}/v2/oauth2/tokens/revoke`;

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies of the API, checked by the assertions
type Json = any;

const control = async (path: string, method = 'GET', body?: unknown): Promise<Json> => {
  const res = await fetch(`${qbo.url}/__emulator${path}`, {
    method,
    ...(body !== undefined
      ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  expect(res.ok).toBe(true);
  return res.json();
};

/** A company of its own, connected through the code flow; a node-quickbooks client for it. */
async function connect(name: string): Promise<{ realmId: string; qb: QuickBooks }> {
  const { realmId } = (await control('/companies', 'POST', { name })) as { realmId: string };
  const consent = await fetch(`${qbo.url}/connect/oauth2/consent`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: qbo.clientId,
      redirect_uri: redirectUri,
      state: 's',
      scope: 'x',
      realmId,
    }),
  });
  const code = new URL(consent.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await fetch(QuickBooks.TOKEN_URL, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${qbo.clientId}:${qbo.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri }),
  });
  const tokens = (await res.json()) as { access_token: string; refresh_token: string };
  const qb = new QuickBooks(
    qbo.clientId,
    qbo.clientSecret,
    tokens.access_token,
    false,
    realmId,
    true,
    false,
    null,
    '2.0',
    tokens.refresh_token,
  );
  return { realmId, qb };
}

/** A node-quickbooks call as a promise: resolves with the callback's data, rejects with its error. */
function call(qb: QuickBooks, method: string, ...args: unknown[]): Promise<Json> {
  return new Promise((resolve, reject) => {
    const fn = (qb as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
    if (!fn) throw new Error(`node-quickbooks has no ${method}`);
    const result = fn.call(qb, ...args, (err: unknown, data: unknown) => (err ? reject(err) : resolve(data)));
    // query methods return a promise too; their rejection is already reported through the callback
    if (result instanceof Promise) result.catch(() => undefined);
  });
}

/** The Fault of a refused call (HTTP error: err.response.data). */
async function fault(
  p: Promise<unknown>,
): Promise<{ status: number; code: string; type: string; headers: Json }> {
  try {
    await p;
  } catch (err) {
    const e = err as Json;
    const data = e.response?.data ?? e;
    return {
      status: e.response?.status,
      code: data.Fault?.Error?.[0]?.code,
      type: data.Fault?.type,
      headers: e.response?.headers,
    };
  }
  throw new Error('the call succeeded');
}

describe('customers, items, estimates and invoices through node-quickbooks', () => {
  let qb: QuickBooks;
  let realmId: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ({ qb, realmId } = await connect('Contract Co'));
  });

  test('createCustomer: company, Job under it, duplicate DisplayName 6240, unknown parent 2500, unknown field 2010', async () => {
    const company = await call(qb, 'createCustomer', {
      DisplayName: 'Orchard Events LLC',
      CompanyName: 'Orchard Events LLC',
      BillAddr: {
        Line1: '1 Orchard Way',
        City: 'Portland',
        CountrySubDivisionCode: 'OR',
        PostalCode: '97205',
      },
      PrimaryPhone: { FreeFormNumber: '503-555-0100' },
    });
    expect(company).toMatchObject({ domain: 'QBO', sparse: false, SyncToken: '0', Active: true, Job: false });
    expect(typeof company.Id).toBe('string');
    expect(company.MetaData.CreateTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    ids.company = company.Id;

    const job = await call(qb, 'createCustomer', {
      GivenName: 'Ada',
      FamilyName: "O'Brien",
      PrimaryEmailAddr: { Address: 'ada@orchard.example' },
      Job: true,
      ParentRef: { value: company.Id },
    });
    expect(job).toMatchObject({
      DisplayName: "Ada O'Brien",
      FullyQualifiedName: "Orchard Events LLC:Ada O'Brien",
      Job: true,
      Level: 1,
      ParentRef: { value: company.Id },
    });
    ids.job = job.Id;

    expect(await fault(call(qb, 'createCustomer', { DisplayName: 'orchard events llc' }))).toMatchObject({
      status: 400,
      code: '6240',
      type: 'ValidationFault',
    });
    expect(
      await fault(
        call(qb, 'createCustomer', { DisplayName: 'Orphan', Job: true, ParentRef: { value: '999' } }),
      ),
    ).toMatchObject({ status: 400, code: '2500' });
    expect(await fault(call(qb, 'createCustomer', { DisplayName: 'A:B' }))).toMatchObject({ code: '6000' });
    expect(await fault(call(qb, 'createCustomer', { DisplayName: 'Bogus', Bogus: 1 }))).toMatchObject({
      code: '2010',
    });
    expect(await fault(call(qb, 'getCustomer', '999'))).toMatchObject({ status: 400, code: '610' });
  });

  test('createItem: Category, SubItem category, Service without IncomeAccountRef', async () => {
    const bars = await call(qb, 'createItem', { Name: 'BARS', Type: 'Category' });
    expect(bars).toMatchObject({
      Name: 'BARS',
      Type: 'Category',
      SubItem: false,
      FullyQualifiedName: 'BARS',
    });
    expect(bars.UnitPrice).toBeUndefined();
    const front = await call(qb, 'createItem', {
      Name: 'Bar Front',
      Type: 'Category',
      SubItem: true,
      ParentRef: { value: bars.Id },
    });
    expect(front).toMatchObject({
      SubItem: true,
      FullyQualifiedName: 'BARS:Bar Front',
      ParentRef: { value: bars.Id },
    });
    const service = await call(qb, 'createItem', {
      Name: 'Rustic Bar Rental',
      Type: 'Service',
      UnitPrice: 100,
    });
    expect(service).toMatchObject({ Type: 'Service', UnitPrice: 100, Active: true });
    const labor = await call(qb, 'createItem', { Name: 'Labor', Type: 'NonInventory', UnitPrice: 50 });
    ids.item = service.Id;
    ids.labor = labor.Id;
    ids.category = bars.Id;
    expect(await fault(call(qb, 'createItem', { Name: 'BARS', Type: 'Category' }))).toMatchObject({
      code: '6240',
    });
  });

  test('createEstimate with TAX lines, CustomField, ExpirationDate, CustomerMemo; getEstimate; sparse update and 5010', async () => {
    const created = await call(qb, 'createEstimate', {
      CustomerRef: { value: ids.job },
      ExpirationDate: '2027-01-31',
      CustomerMemo: { value: 'Thank you for your order' },
      CustomField: [{ DefinitionId: '1', Name: 'Event date', StringValue: '2027-02-14' }],
      Line: [
        {
          Amount: 200,
          Description: 'Rustic bar',
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: {
            ItemRef: { value: ids.item },
            Qty: 2,
            UnitPrice: 100,
            TaxCodeRef: { value: 'TAX' },
          },
        },
        {
          Amount: 50,
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: {
            ItemRef: { value: ids.labor },
            Qty: 1,
            UnitPrice: 50,
            TaxCodeRef: { value: 'NON' },
          },
        },
      ],
    });
    expect(created).toMatchObject({
      DocNumber: '1001',
      TxnStatus: 'Pending',
      EmailStatus: 'NotSet',
      PrintStatus: 'NeedToPrint',
      ExpirationDate: '2027-01-31',
      CustomerMemo: { value: 'Thank you for your order' },
      CustomerRef: { value: ids.job, name: "Ada O'Brien" },
      CustomField: [{ DefinitionId: '1', Name: 'Event date', Type: 'StringType', StringValue: '2027-02-14' }],
      TxnTaxDetail: { TotalTax: 16.2 },
      TotalAmt: 266.2,
      SyncToken: '0',
    });
    expect(created.TxnDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(created.Line).toHaveLength(3);
    expect(created.Line[0]).toMatchObject({ Id: '1', LineNum: 1, Amount: 200 });
    expect(created.Line[1].SalesItemLineDetail.ItemRef).toEqual({ value: ids.labor, name: 'Labor' });
    expect(created.Line[2]).toEqual({
      Amount: 250,
      DetailType: 'SubTotalLineDetail',
      SubTotalLineDetail: {},
    });
    ids.estimate = created.Id;

    expect(await call(qb, 'getEstimate', created.Id)).toEqual(created);

    const rejected = await call(qb, 'updateEstimate', {
      Id: created.Id,
      SyncToken: '0',
      TxnStatus: 'Rejected',
    });
    expect(rejected).toMatchObject({
      TxnStatus: 'Rejected',
      SyncToken: '1',
      TotalAmt: 266.2,
      DocNumber: '1001',
    });
    expect(
      await fault(call(qb, 'updateEstimate', { Id: created.Id, SyncToken: '0', TxnStatus: 'Accepted' })),
    ).toMatchObject({ status: 400, code: '5010', type: 'ValidationFault' });
    const accepted = await call(qb, 'updateEstimate', {
      Id: created.Id,
      SyncToken: '1',
      TxnStatus: 'Accepted',
    });
    expect(accepted).toMatchObject({ TxnStatus: 'Accepted', SyncToken: '2' });
    // A line pointing at a category is refused; a category is no sellable item.
    expect(
      await fault(
        call(qb, 'createEstimate', {
          CustomerRef: { value: ids.job },
          Line: [
            {
              Amount: 1,
              DetailType: 'SalesItemLineDetail',
              SalesItemLineDetail: { ItemRef: { value: ids.category } },
            },
          ],
        }),
      ),
    ).toMatchObject({ code: '6000' });
  });

  test('sendEstimatePdf to an address with + → EmailSent and a real e-mail in the catcher', async () => {
    const to = `ada+quotes-${realmId}@example.test`;
    const sent = await call(qb, 'sendEstimatePdf', ids.estimate, to);
    expect(sent).toMatchObject({ Id: ids.estimate, EmailStatus: 'EmailSent', BillEmail: { Address: to } });
    expect(sent.DeliveryInfo).toMatchObject({ DeliveryType: 'Email' });
    const search = `${mailApiUrl}/api/v1/search?query=${encodeURIComponent(`to:${to}`)}`;
    const { messages } = (await (await fetch(search)).json()) as { messages: Json[] };
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      Subject: 'Estimate 1001 from Contract Co',
      From: { Address: 'quickbooks@emulator.local' },
    });
    const full = (await (await fetch(`${mailApiUrl}/api/v1/message/${messages[0].ID}`)).json()) as Json;
    expect(full.Text).toContain('Rustic bar');
    expect(full.Text).toContain('$266.20');
    expect(full.HTML).toContain('Thank you for your order');
    await fetch(search, { method: 'DELETE' });

    // No address anywhere: the customer has none, the invoice has no BillEmail.
    const bare = await call(qb, 'createCustomer', { DisplayName: 'No Mail Person' });
    const est = await call(qb, 'createEstimate', {
      CustomerRef: { value: bare.Id },
      Line: [
        { DetailType: 'SalesItemLineDetail', SalesItemLineDetail: { ItemRef: { value: ids.labor }, Qty: 1 } },
      ],
    });
    expect(est.TotalAmt).toBe(50);
    expect(await fault(call(qb, 'sendEstimatePdf', est.Id))).toMatchObject({ status: 400, code: '6000' });
  });

  test('createInvoice with LinkedTxn closes the estimate; voidInvoice zeroes it; deleteEstimate', async () => {
    const invoice = await call(qb, 'createInvoice', {
      CustomerRef: { value: ids.job },
      LinkedTxn: [{ TxnId: ids.estimate, TxnType: 'Estimate' }],
      Line: [
        {
          Amount: 200,
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: {
            ItemRef: { value: ids.item },
            Qty: 2,
            UnitPrice: 100,
            TaxCodeRef: { value: 'TAX' },
          },
        },
      ],
      TxnTaxDetail: { TotalTax: 16 },
    });
    expect(invoice).toMatchObject({ DocNumber: '1001', TotalAmt: 216, Balance: 216, EmailStatus: 'NotSet' });
    expect(invoice.DueDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const estimate = await call(qb, 'getEstimate', ids.estimate);
    expect(estimate.TxnStatus).toBe('Closed');
    expect(estimate.LinkedTxn).toEqual([{ TxnId: invoice.Id, TxnType: 'Invoice' }]);

    const voided = await call(qb, 'voidInvoice', invoice.Id);
    expect(Object.keys(voided).sort()).toEqual(['Invoice', 'time']);
    expect(voided.Invoice).toMatchObject({
      Id: invoice.Id,
      SyncToken: '1',
      PrivateNote: 'Voided',
      TotalAmt: 0,
      Balance: 0,
      DocNumber: '1001',
    });
    expect(voided.Invoice.Line.every((l: Json) => l.Amount === 0)).toBe(true);

    const extra = await call(qb, 'createEstimate', {
      CustomerRef: { value: ids.company },
      Line: [
        {
          Amount: 50,
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: { ItemRef: { value: ids.labor } },
        },
      ],
    });
    const deleted = await call(qb, 'deleteEstimate', extra.Id);
    expect(deleted.Estimate).toEqual({ domain: 'QBO', status: 'Deleted', Id: extra.Id });
    expect(await fault(call(qb, 'getEstimate', extra.Id))).toMatchObject({ code: '610' });
  });

  test('createPayment applies to an invoice (Balance drops), never beyond its balance; findPayments', async () => {
    const invoice = await call(qb, 'createInvoice', {
      CustomerRef: { value: ids.job },
      Line: [
        {
          Amount: 100,
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: { ItemRef: { value: ids.item }, Qty: 1, UnitPrice: 100 },
        },
      ],
    });
    const payment = await call(qb, 'createPayment', {
      CustomerRef: { value: ids.job },
      TotalAmt: 25,
      PaymentRefNum: 'pi_123',
      Line: [{ Amount: 25, LinkedTxn: [{ TxnId: invoice.Id, TxnType: 'Invoice' }] }],
    });
    expect(payment).toMatchObject({
      SyncToken: '0',
      TotalAmt: 25,
      UnappliedAmt: 0,
      Line: [{ Amount: 25, LinkedTxn: [{ TxnId: invoice.Id, TxnType: 'Invoice' }] }],
    });
    expect((await call(qb, 'getInvoice', invoice.Id)).Balance).toBe(75);
    expect(
      await fault(
        call(qb, 'createPayment', {
          CustomerRef: { value: ids.job },
          TotalAmt: 80,
          Line: [{ Amount: 80, LinkedTxn: [{ TxnId: invoice.Id, TxnType: 'Invoice' }] }],
        }),
      ),
    ).toMatchObject({ status: 400, code: '6000' });
    expect(
      await fault(
        call(qb, 'createPayment', {
          CustomerRef: { value: ids.company },
          TotalAmt: 5,
          Line: [{ Amount: 5, LinkedTxn: [{ TxnId: invoice.Id, TxnType: 'Invoice' }] }],
        }),
      ),
    ).toMatchObject({ status: 400, code: '6000' });
    expect(await fault(call(qb, 'createPayment', { CustomerRef: { value: ids.job } }))).toMatchObject({
      status: 400,
    });
    const found = await call(qb, 'findPayments', { PaymentRefNum: 'pi_123' });
    expect(found.QueryResponse.Payment.map((p: Json) => p.Id)).toEqual([payment.Id]);

    // Paid back: a RefundReceipt, a sales form totalled like an invoice, with nothing left open.
    const refund = await call(qb, 'createRefundReceipt', {
      CustomerRef: { value: ids.job },
      PrivateNote: 'Deposit refunded (pi_123)',
      Line: [
        {
          Amount: 25,
          DetailType: 'SalesItemLineDetail',
          SalesItemLineDetail: { ItemRef: { value: ids.labor }, Qty: 1, UnitPrice: 25 },
        },
      ],
    });
    expect(refund).toMatchObject({ SyncToken: '0', TotalAmt: 25, Balance: 0, DocNumber: '1001' });
    expect(await fault(call(qb, 'createRefundReceipt', { CustomerRef: { value: ids.job } }))).toMatchObject({
      status: 400,
    });
  });

  test('findCustomers with string and object criteria, LIKE, count, Active; findItems by Type; getCompanyInfo', async () => {
    const byString = await call(qb, 'findCustomers', "where DisplayName = 'Ada O\\'Brien'");
    expect(byString.QueryResponse).toMatchObject({ startPosition: 1, maxResults: 1 });
    expect(byString.QueryResponse.Customer[0].Id).toBe(ids.job);
    const byObject = await call(qb, 'findCustomers', { DisplayName: "Ada O'Brien" });
    expect(byObject.QueryResponse.Customer.map((c: Json) => c.Id)).toEqual([ids.job]);
    const byParent = await call(qb, 'findCustomers', [{ field: 'ParentRef.value', value: ids.company }]);
    expect(byParent.QueryResponse.Customer.map((c: Json) => c.Id)).toEqual([ids.job]);
    const like = await call(qb, 'findCustomers', [
      { field: 'DisplayName', value: 'Orchard%', operator: 'LIKE' },
    ]);
    expect(like.QueryResponse.Customer.map((c: Json) => c.Id)).toEqual([ids.company]);
    const none = await call(qb, 'findCustomers', { DisplayName: 'Nobody Here' });
    expect(none.QueryResponse).toEqual({});

    const count = await call(qb, 'findCustomers', { count: true });
    expect(count.QueryResponse).toEqual({ totalCount: 3 });

    const person = await call(qb, 'getCustomer', ids.job);
    await call(qb, 'updateCustomer', { Id: ids.job, SyncToken: person.SyncToken, Active: false });
    const active = await call(qb, 'findCustomers', {});
    expect(active.QueryResponse.Customer.map((c: Json) => c.Id)).not.toContain(ids.job);
    const inactive = await call(qb, 'findCustomers', 'where Active = false');
    expect(inactive.QueryResponse.Customer.map((c: Json) => c.Id)).toEqual([ids.job]);

    const categories = await call(qb, 'findItems', "where Type = 'Category'");
    expect(categories.QueryResponse.Item.map((i: Json) => i.FullyQualifiedName)).toEqual([
      'BARS',
      'BARS:Bar Front',
    ]);
    const page = await call(qb, 'findItems', [
      { field: 'limit', value: 2 },
      { field: 'offset', value: 3 },
      { field: 'asc', value: 'Name' },
    ]);
    expect(page.QueryResponse).toMatchObject({ startPosition: 3, maxResults: 2 });
    expect(page.QueryResponse.Item.map((i: Json) => i.Name)).toEqual(['Labor', 'Rustic Bar Rental']);

    const info = await call(qb, 'getCompanyInfo', realmId);
    expect(info).toMatchObject({ CompanyName: 'Contract Co', Country: 'US', domain: 'QBO' });
    expect(await fault(call(qb, 'findCustomers', 'where DisplayName = unquoted words'))).toMatchObject({
      status: 400,
      code: '4000',
    });
  });

  test('refreshAccessToken keeps the new tokens; a requestid repeated replays one document', async () => {
    const before = qb.token;
    const refreshed = await call(qb, 'refreshAccessToken');
    expect(refreshed).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(qb.token).not.toBe(before);
    expect(qb.refreshToken).toBe(refreshed.refresh_token);

    const first = await call(qb, 'createCustomer', { DisplayName: 'Replay Co', requestId: `job-${realmId}` });
    const second = await call(qb, 'createCustomer', {
      DisplayName: 'Replay Co',
      requestId: `job-${realmId}`,
    });
    expect(second).toEqual(first);
    const records = (await control(`/realms/${realmId}/records/Customer`)) as Json[];
    expect(records.filter((c) => c.DisplayName === 'Replay Co')).toHaveLength(1);
    expect((await control(`/realms/${realmId}/stats`)).replays).toBe(1);
  });
});

describe('limits and faults', () => {
  test('an injected 503 for 2 calls, then normal again', async () => {
    const { qb, realmId } = await connect('Fault Co');
    await control(`/realms/${realmId}/faults`, 'POST', { status: 503, count: 2 });
    expect(await fault(call(qb, 'getCompanyInfo', realmId))).toMatchObject({
      status: 503,
      type: 'SystemFault',
    });
    expect(await fault(call(qb, 'findCustomers', {}))).toMatchObject({ status: 503 });
    expect((await call(qb, 'getCompanyInfo', realmId)).CompanyName).toBe('Fault Co');
    await control(`/realms/${realmId}/faults`, 'POST', { downForSeconds: 30 });
    expect(await fault(call(qb, 'getCompanyInfo', realmId))).toMatchObject({ status: 503 });
    await control(`/realms/${realmId}/faults`, 'DELETE');
    expect((await call(qb, 'getCompanyInfo', realmId)).CompanyName).toBe('Fault Co');
    expect(await control(`/realms/${realmId}/stats`)).toMatchObject({ faulted: 3, requests: 5 });
  });

  test('over the per-realm limit: 429 ThrottleExceeded with Retry-After', async () => {
    const { qb, realmId } = await connect('Throttle Co');
    await control(`/realms/${realmId}/settings`, 'PUT', { rateLimitPerMinute: 3 });
    for (let i = 0; i < 3; i++) await call(qb, 'getCompanyInfo', realmId);
    const refused = await fault(call(qb, 'createCustomer', { DisplayName: 'Too Many' }));
    expect(refused).toMatchObject({ status: 429, code: '3001', type: 'SERVICE' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    const stats = await control(`/realms/${realmId}/stats`);
    expect(stats).toMatchObject({
      requests: 4,
      throttled: 1,
      requestsPerMinutePeak: 3,
      documents: { Customer: 0 },
    });
  });
});
