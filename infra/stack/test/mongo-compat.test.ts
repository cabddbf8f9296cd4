/**
 * mongoose 8 against mongo-java-server (memory backend): the operations the services and the
 * kit's transactional outbox rely on. If the server lacks one, this is where it shows.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection, Schema } from 'mongoose';
import { testEndpoints } from '../src/endpoints';

interface OutboxEntry {
  id: string;
  type: string;
}
interface Item {
  sku: string;
  name: string;
  category: string;
  price: number;
  stock: number;
  outbox: OutboxEntry[];
  lockedUntil?: Date;
}

const itemSchema = new Schema<Item>({
  sku: { type: String, required: true, unique: true },
  name: { type: String, required: true },
  category: { type: String, required: true },
  price: { type: Number, required: true },
  stock: { type: Number, default: 0 },
  outbox: { type: [{ _id: false, id: String, type: { type: String } }], default: [] },
  lockedUntil: Date,
});

let connection: Connection;
const Items = () => connection.model<Item>('Item', itemSchema);

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testEndpoints().mongoUrl, { dbName: `t${randomBytes(4).toString('hex')}_compat` })
    .asPromise();
  await Items().init(); // builds the unique index
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

test('creates, reads, updates and deletes a document', async () => {
  const created = await Items().create({
    sku: 'chair-1',
    name: 'Chiavari chair',
    category: 'chairs',
    price: 7,
  });
  expect((await Items().findById(created._id).lean())?.name).toBe('Chiavari chair');
  await Items().updateOne({ _id: created._id }, { $set: { price: 8 }, $inc: { stock: 3 } });
  const updated = await Items().findById(created._id).lean();
  expect([updated?.price, updated?.stock]).toEqual([8, 3]);
  await Items().deleteOne({ _id: created._id });
  expect(await Items().findById(created._id)).toBeNull();
});

test('a unique index refuses a duplicate with code 11000', async () => {
  await Items().create({ sku: 'arch-1', name: 'Wedding arch', category: 'arches', price: 120 });
  await expect(
    Items().create({ sku: 'arch-1', name: 'Another arch', category: 'arches', price: 90 }),
  ).rejects.toMatchObject({ code: 11000 });
});

test('findOneAndUpdate with upsert and new: true returns the created document', async () => {
  const upserted = await Items().findOneAndUpdate(
    { sku: 'vase-1' },
    { $setOnInsert: { name: 'Glass vase', category: 'vases', price: 4 }, $inc: { stock: 10 } },
    { upsert: true, new: true },
  );
  expect(upserted).toMatchObject({ sku: 'vase-1', stock: 10 });
  const again = await Items().findOneAndUpdate(
    { sku: 'vase-1' },
    { $inc: { stock: 5 } },
    { upsert: true, new: true },
  );
  expect(again?.stock).toBe(15);
});

test('countDocuments and an aggregation with $match/$group/$sort/$skip/$limit', async () => {
  await Items().insertMany([
    { sku: 'agg-1', name: 'Linen A', category: 'linen', price: 5 },
    { sku: 'agg-2', name: 'Linen B', category: 'linen', price: 7 },
    { sku: 'agg-3', name: 'Candle A', category: 'candles', price: 2 },
    { sku: 'agg-4', name: 'Candle B', category: 'candles', price: 3 },
    { sku: 'agg-5', name: 'Candle C', category: 'candles', price: 4 },
    { sku: 'agg-6', name: 'Lantern', category: 'lanterns', price: 9 },
  ]);
  expect(await Items().countDocuments({ sku: /^agg-/ })).toBe(6);
  const groups = await Items().aggregate<{ _id: string; count: number; total: number }>([
    { $match: { sku: { $regex: '^agg-' } } },
    { $group: { _id: '$category', count: { $sum: 1 }, total: { $sum: '$price' } } },
    { $sort: { count: -1, _id: 1 } },
    { $skip: 1 },
    { $limit: 1 },
  ]);
  expect(groups).toEqual([{ _id: 'linen', count: 2, total: 12 }]);
});

describe('outbox operations', () => {
  test('$push with $each and $slice keeps the newest entries', async () => {
    await Items().create({ sku: 'ob-1', name: 'Table', category: 'tables', price: 30 });
    const entries = [1, 2, 3, 4].map((n) => ({ id: `e${n}`, type: 'ItemPriced' }));
    await Items().updateOne({ sku: 'ob-1' }, { $push: { outbox: { $each: entries, $slice: -3 } } });
    const doc = await Items().findOne({ sku: 'ob-1' }).lean();
    expect(doc?.outbox.map((e) => e.id)).toEqual(['e2', 'e3', 'e4']);
  });

  test('$pull with { id: { $in: [...] } } removes the sent entries', async () => {
    await Items().updateOne({ sku: 'ob-1' }, { $pull: { outbox: { id: { $in: ['e2', 'e4'] } } } });
    const doc = await Items().findOne({ sku: 'ob-1' }).lean();
    expect(doc?.outbox.map((e) => e.id)).toEqual(['e3']);
  });

  test("{ 'outbox.0': { $exists: true } } finds only documents with pending entries", async () => {
    await Items().create({ sku: 'ob-empty', name: 'Bench', category: 'benches', price: 15 });
    const pending = await Items()
      .find({ sku: /^ob-/, 'outbox.0': { $exists: true } })
      .lean();
    expect(pending.map((d) => d.sku)).toEqual(['ob-1']);
  });

  test('findOneAndUpdate on a date condition takes an expired lock exactly once', async () => {
    const now = new Date();
    await Items().updateOne({ sku: 'ob-1' }, { $set: { lockedUntil: new Date(now.getTime() - 1000) } });
    const claim = () =>
      Items().findOneAndUpdate(
        { sku: 'ob-1', $or: [{ lockedUntil: { $lt: now } }, { lockedUntil: { $exists: false } }] },
        { $set: { lockedUntil: new Date(now.getTime() + 30_000) } },
        { new: true },
      );
    const first = await claim();
    expect(first?.lockedUntil?.getTime()).toBe(now.getTime() + 30_000);
    expect(await claim()).toBeNull(); // still locked
  });
});
