/** The trucking fee: staff only, validated, and every change published as TruckingFeeChanged. */
import { TruckingFeeChanged } from '@decor/contracts';
import { eventually } from '@decor/kit/testing';
import {
  type Catalogue,
  call,
  catalogueEvents,
  type Role,
  startCatalogue,
  stopAndClean,
  tokenFor,
} from './support';

let service: Catalogue;
let base: string;
const tokens = {} as Record<Role, string>;

beforeAll(async () => {
  // The fee exists without the demo catalogue: it is a setting of every deployment.
  service = await startCatalogue({ DEMO_CATALOGUE: 'false' });
  base = service.url;
  for (const role of ['customer', 'admin', 'superadmin'] as const) tokens[role] = tokenFor(service, role);
});

afterAll(() => stopAndClean(service));

describe('GET /trucking', () => {
  it('gives staff the fee as {id, value} in dollars, starting at the $350 minimum', async () => {
    for (const role of ['admin', 'superadmin'] as const) {
      const res = await call(base, '/trucking', { token: tokens[role] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: { id: '1', value: 350 } });
    }
  });

  it('refuses anonymous visitors (401) and customers (403)', async () => {
    const anonymous = await call(base, '/trucking');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.message).toBe('Authentication required');
    const customer = await call(base, '/trucking', { token: tokens.customer });
    expect(customer.status).toBe(403);
    expect(customer.body.message).toBe('You are not allowed to do this');
  });
});

describe('PUT /trucking/{id}', () => {
  it('lets staff change the fee, rounded to the cent, and publishes TruckingFeeChanged', async () => {
    const res = await fetch(`${base}/trucking/1`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 425.499 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ result: { id: '1', value: 425.5 } });
    const requestId = res.headers.get('x-request-id');

    const read = await call(base, '/trucking', { token: tokens.superadmin });
    expect(read.body.result.value).toBe(425.5);

    const events = await catalogueEvents(service.ctx.kafka, (seen) =>
      seen.some((e) => e.correlationId === requestId),
    );
    const fees = events.filter((e) => e.type === TruckingFeeChanged.type);
    // The fee's creation at start is announced too, so the order service always knows a fee.
    expect(fees[0]?.payload).toEqual({ id: '1', valueCents: 35_000 });
    expect(fees.find((e) => e.correlationId === requestId)).toMatchObject({
      aggregateType: 'catalogue',
      aggregateId: '1',
      payload: { id: '1', valueCents: 42_550 },
    });
    // Published, so (once the relay has marked it) no longer pending in the document's outbox.
    await eventually(
      async () => {
        const fee = await service.ctx.trucking.findById('1').lean();
        return fee?.outbox.length === 0 ? true : undefined;
      },
      5000,
      'the outbox to drain',
    );
  });

  it('accepts a fee of zero', async () => {
    const res = await call(base, '/trucking/1', {
      method: 'PUT',
      json: { value: 0 },
      token: tokens.superadmin,
    });
    expect(res.status).toBe(200);
    expect(res.body.result.value).toBe(0);
  });

  it.each([
    [{ value: -1 }, 'value must be a number from 0 to 1000000'],
    [{ value: '400' }, 'value must be a number from 0 to 1000000'],
    [{}, 'value is required'],
    [{ value: 1, id: '2' }, "Unknown field 'id'"],
  ])('answers 400 for the body %j', async (json, message) => {
    const res = await call(base, '/trucking/1', { method: 'PUT', json, token: tokens.admin });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('answers 404 for an unknown fee id and 400 for a malformed one', async () => {
    const unknown = await call(base, '/trucking/2', {
      method: 'PUT',
      json: { value: 1 },
      token: tokens.admin,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Trucking fee not found');
    const malformed = await call(base, '/trucking/%24x', {
      method: 'PUT',
      json: { value: 1 },
      token: tokens.admin,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe('Invalid id');
  });

  it('refuses anonymous visitors and customers, and leaves the fee as it was', async () => {
    await call(base, '/trucking/1', { method: 'PUT', json: { value: 350 }, token: tokens.admin });
    const anonymous = await call(base, '/trucking/1', { method: 'PUT', json: { value: 1 } });
    expect(anonymous.status).toBe(401);
    const customer = await call(base, '/trucking/1', {
      method: 'PUT',
      json: { value: 1 },
      token: tokens.customer,
    });
    expect(customer.status).toBe(403);
    const read = await call(base, '/trucking', { token: tokens.admin });
    expect(read.body.result.value).toBe(350);
  });
});
