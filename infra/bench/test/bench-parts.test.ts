/**
 * `npm run bench` without --only: the orders part after the checkouts part (whose submissions took
 * DocNumbers 1001, 1002, … from the order service's counter), and a failing part that must not take
 * the other parts' figures with it.
 */
import { randomBytes } from 'node:crypto';
import { testEndpoints } from '@decor/stack';
import mongoose, { type Connection } from 'mongoose';
import { insertEstimates } from '../src/orders';
import { BenchParts } from '../src/parts';

describe('bench parts stand alone', () => {
  let connection: Connection;
  const orderDb = { url: testEndpoints().mongoUrl, db: `t${randomBytes(4).toString('hex')}_bench_orders` };

  beforeAll(async () => {
    connection = await mongoose.createConnection(orderDb.url, { dbName: orderDb.db }).asPromise();
    // The order service's unique DocNumber index (services/order/src/store/estimate-model.ts).
    await connection.collection('estimates').createIndex({ docNumber: 1 }, { unique: true });
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it("the orders part inserts after the checkouts' estimates: no duplicate DocNumber, and counts what is there", async () => {
    // What three checkouts leave: estimates 1001..1003 (Pending) and the counter at 3.
    await connection.collection('counters').insertOne({ _id: 'estimateDocNumber', seq: 3 } as never);
    await connection
      .collection('estimates')
      .insertMany(['1001', '1002', '1003'].map((docNumber) => ({ docNumber, status: 'Pending' })));

    const inserted = await insertEstimates(orderDb, 120, ['c1', 'c2']);

    expect(inserted.docNumbers[0]).toBe('1004');
    expect(inserted.docNumbers.at(-1)).toBe('1123');
    expect(await connection.collection('estimates').countDocuments()).toBe(123);
    // Later submissions continue after the bench's numbers.
    const counter = await connection.collection('counters').findOne({ _id: 'estimateDocNumber' } as never);
    expect(counter?.seq).toBe(123);
    // 1001..1099 (the checkouts' three included); Open: every fourth of the 120, from the second.
    expect(inserted.withPrefix10).toBe(99);
    expect(inserted.open).toBe(30);
  });

  it('a part that fails is logged; the parts after it run and keep their figures; the run then fails', async () => {
    const lines: string[] = [];
    const parts = new BenchParts((line) => lines.push(line));
    const before = await parts.run('checkout', async () => ({ perSecond: 12 }));
    const failed = await parts.run('orders', async () => {
      throw new Error('E11000 duplicate key error collection: estimates index: docNumber_1');
    });
    const after = await parts.run('users', async () => ({ p50: 4 }));

    expect(before).toEqual({ perSecond: 12 });
    expect(failed).toBeUndefined();
    expect(after).toEqual({ p50: 4 });
    expect(lines.join('\n')).toMatch(/^orders: FAILED, no figures: Error: E11000/);
    expect(parts.failed).toEqual(['orders']);
    expect(() => parts.throwIfFailed()).toThrow('bench parts failed: orders');
    expect(() => new BenchParts(() => {}).throwIfFailed()).not.toThrow();
  });
});
