/**
 * Issue 31: the embedded server's sorted indexes (infra/stack/mongo/Launcher.java) change how many
 * documents a find or count reads, never its answer. The same writes go to two collections, one
 * with indexes and one without (the library's scan); then many finds and counts of the shapes the
 * services send (equality, ranges, prefix regexes, $and/$or, sorts with and without the _id
 * tie-break, skip/limit, projections) must answer the same on both, in the same order.
 */
import { randomBytes } from 'node:crypto';
import mongoose, { type Connection } from 'mongoose';
import { testEndpoints } from '../src/endpoints';

let connection: Connection;

beforeAll(async () => {
  connection = await mongoose
    .createConnection(testEndpoints().mongoUrl, { dbName: `t${randomBytes(4).toString('hex')}_indexes` })
    .asPromise();
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

/** A small deterministic generator, so a failure repeats. */
function generator(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T };
}

const STATUSES = ['Pending', 'Open', 'Closed', 'Voided', 'Accepted'] as const;

function randomDoc(r: ReturnType<typeof generator>, i: number) {
  const doc: Record<string, unknown> & { _id: mongoose.Types.ObjectId } = {
    _id: new mongoose.Types.ObjectId(),
    docNumber: String(1000 + i),
    code: String(1000 + i),
    status: r.pick(STATUSES),
    userId: r.pick(['u1', 'u2', 'u3', 'u4']),
    hasBeenModified: r.next() < 0.3,
    // Few distinct instants: ties, which the _id tie-break must order.
    createdAt: new Date(Date.UTC(2026, 0, 1 + Math.floor(r.next() * 20))),
    n: Math.floor(r.next() * 50),
    details:
      r.next() < 0.8
        ? { eventDate: `2026-0${1 + Math.floor(r.next() * 9)}-1${Math.floor(r.next() * 9)}` }
        : {},
  };
  if (r.next() < 0.3) doc.tags = r.next() < 0.5 ? ['a', 'b'] : ['c'];
  // The kit's outbox: a few documents with events to publish, some of them leased.
  doc.outbox = r.next() < 0.15 ? [{ id: `e${i}` }] : [];
  doc.outboxLeaseUntil = r.next() < 0.5 ? null : new Date(Date.UTC(2026, 0, 1 + Math.floor(r.next() * 20)));
  if (r.next() < 0.1) delete doc.status;
  if (r.next() < 0.05) doc.n = String(doc.n); // another type in the same field
  return doc;
}

test('finds and counts answer the same with the sorted indexes as with a scan', async () => {
  const indexed = connection.collection('indexed');
  const plain = connection.collection('plain');
  await indexed.createIndex({ createdAt: -1, _id: -1 });
  await indexed.createIndex({ status: 1, createdAt: -1, _id: -1 });
  await indexed.createIndex({ userId: 1, createdAt: -1, _id: -1 });
  await indexed.createIndex({ hasBeenModified: 1, createdAt: -1, _id: -1 });
  await indexed.createIndex({ docNumber: 1 }, { unique: true });
  await indexed.createIndex({ 'details.eventDate': 1, _id: 1 });
  await indexed.createIndex({ n: 1 });
  await indexed.createIndex({ tags: 1, createdAt: 1 }); // multikey
  await indexed.createIndex({ code: -1, _id: 1 });
  // Partial, as the kit's outbox_pending: only documents with events are its entries.
  await indexed.createIndex(
    { outboxLeaseUntil: 1 },
    { name: 'outbox_pending', partialFilterExpression: { 'outbox.0': { $exists: true } } },
  );
  await plain.createIndex({ docNumber: 1 }, { unique: true });

  const r = generator(31);
  const docs = Array.from({ length: 600 }, (_, i) => randomDoc(r, i));
  await indexed.insertMany(docs.map((d) => ({ ...d })));
  await plain.insertMany(docs.map((d) => ({ ...d })));
  // Changes and removals after the insert keep the indexes in step.
  for (let i = 0; i < 120; i++) {
    const doc = r.pick(docs);
    const change: Record<string, Record<string, unknown>> = i % 3 === 0
      ? { $set: { status: r.pick(STATUSES), createdAt: new Date(Date.UTC(2026, 0, 1 + (i % 20))) } }
      : i % 3 === 1
        ? { $set: { tags: ['b', String(i)], n: i % 50 } }
        : i % 2 === 0
          ? { $unset: { 'details.eventDate': '' }, $push: { outbox: { id: `u${i}` } } }
          : { $unset: { 'details.eventDate': '' }, $set: { outbox: [] } };
    await indexed.updateOne({ _id: doc._id }, change);
    await plain.updateOne({ _id: doc._id }, change);
  }
  for (let i = 0; i < 40; i++) {
    const doc = docs[i * 7] as { _id: mongoose.Types.ObjectId };
    await indexed.deleteOne({ _id: doc._id });
    await plain.deleteOne({ _id: doc._id });
  }
  // Inserted after the removals: the memory backend reuses the freed positions. Among them DocNumbers
  // at a prefix's edges ('11' ends the range of '10'), and `code`, the same text in a descending index.
  const later = Array.from({ length: 30 }, (_, i) => randomDoc(r, 1000 + i));
  for (const [i, edge] of ['1', '10', '11', '105', '106', '10/', '1:'].entries()) {
    const doc = later[i] as Record<string, unknown>;
    doc.docNumber = edge;
    doc.code = edge;
  }
  await indexed.insertMany(later.map((d) => ({ ...d })));
  await plain.insertMany(later.map((d) => ({ ...d })));

  const day = (d: number) => new Date(Date.UTC(2026, 0, d));
  const filters: Record<string, unknown>[] = [
    {},
    { status: 'Open' },
    { status: 'Nope' },
    { status: { $eq: 'Closed' } },
    { status: 'Open', userId: 'u2' },
    { userId: 'u3' },
    { hasBeenModified: true },
    { hasBeenModified: false, status: 'Pending' },
    { docNumber: { $regex: '^10', $options: 'i' } },
    { docNumber: { $regex: '^105' } },
    { docNumber: { $regex: '^1' }, status: 'Voided' },
    { docNumber: /^100/ },
    { docNumber: '1044' },
    { docNumber: /^10/ },
    { docNumber: /^10/, status: 'Open' },
    { docNumber: /^1$/ },
    { docNumber: /^10\// },
    { code: /^10/ },
    { code: /^105/ },
    { code: { $regex: '^10', $options: 'i' } },
    { code: { $gte: '105', $lt: '11' } },
    { createdAt: { $gte: day(5), $lt: day(9) } },
    { createdAt: { $gt: day(15) } },
    { status: 'Open', createdAt: { $lte: day(10) } },
    { n: { $gt: 10, $lt: 20 } },
    { n: 7 },
    { n: { $gte: 45 } },
    { 'details.eventDate': { $gte: '2026-05' } },
    { 'details.eventDate': { $exists: false } },
    { tags: 'b' },
    { tags: { $in: ['a', 'c'] } },
    { $and: [{ status: 'Open' }, { n: { $lt: 25 } }] },
    { $and: [{ status: 'Closed' }, { $or: [{ userId: 'u1' }, { hasBeenModified: true }] }] },
    { status: { $in: ['Open', 'Pending'] } },
    { status: { $ne: 'Open' }, userId: 'u4' },
    { status: null },
    // The outbox relay's claim: a free lease among documents with events (the partial index).
    {
      'outbox.0': { $exists: true },
      $or: [{ outboxLeaseUntil: null }, { outboxLeaseUntil: { $lt: day(10) } }],
    },
    { 'outbox.0': { $exists: true }, outboxLeaseUntil: { $gte: day(10) } },
    { outboxLeaseUntil: null },
  ];
  const sorts: (Record<string, 1 | -1> | undefined)[] = [
    undefined,
    { createdAt: -1, _id: -1 },
    { createdAt: 1, _id: 1 },
    { createdAt: -1 },
    { 'details.eventDate': 1, _id: 1 },
    { 'details.eventDate': -1, _id: -1 },
    { status: 1, _id: 1 },
    { n: 1 },
    { _id: -1 },
    { tags: 1, createdAt: 1, _id: 1 },
    { code: -1, _id: 1 },
    { code: 1, _id: -1 },
  ];
  const pages = [
    { skip: 0, limit: 0 },
    { skip: 0, limit: 20 },
    { skip: 590, limit: 20 },
  ];
  let compared = 0;
  for (const filter of filters) {
    expect(await indexed.countDocuments(filter)).toBe(await plain.countDocuments(filter));
    expect(await indexed.countDocuments(filter, { skip: 3, limit: 10 })).toBe(
      await plain.countDocuments(filter, { skip: 3, limit: 10 }),
    );
    for (const sort of sorts) {
      for (const { skip, limit } of pages) {
        const ask = (c: typeof indexed) =>
          c
            .find(filter, sort ? { sort, skip, limit } : { skip, limit })
            .project({ _id: 1, createdAt: 1 })
            .toArray();
        const [got, want] = await Promise.all([ask(indexed), ask(plain)]);
        expect({ filter, sort, skip, limit, ids: got.map((d) => String(d._id)) }).toEqual({
          filter,
          sort,
          skip,
          limit,
          ids: want.map((d) => String(d._id)),
        });
        compared += 1;
      }
    }
  }
  expect(compared).toBe(filters.length * sorts.length * pages.length);
  // …and the indexes were used: read in order, by candidates, and counted without a document.
  const stats = await connection.db?.command({ decorPlannerStats: 'indexed' });
  expect(stats).toMatchObject({ broken: false, indexes: 10 }); // the ten above (_id alone is the library's)
  for (const used of ['inOrder', 'byCandidates', 'coveredCounts', 'candidateCounts', 'scans'] as const)
    expect(stats?.[used]).toBeGreaterThan(0);
}, 180_000); // ~1,400 finds and their counts: ~10 s on a quiet machine, 45 s at load 30

test('an index made after the documents, and one dropped, answer as a scan', async () => {
  const late = connection.collection('late');
  const r = generator(7);
  await late.insertMany(Array.from({ length: 200 }, (_, i) => randomDoc(r, i)));
  const want = await late.find({ status: 'Open' }).sort({ createdAt: -1, _id: -1 }).limit(15).toArray();
  // Its own name: the library's dropIndexes forgets every index of that name, in any collection.
  await late.createIndex({ status: 1, createdAt: -1, _id: -1 }, { name: 'late_status' });
  const got = await late.find({ status: 'Open' }).sort({ createdAt: -1, _id: -1 }).limit(15).toArray();
  expect(got).toEqual(want);
  await late.dropIndex('late_status');
  expect(await late.find({ status: 'Open' }).sort({ createdAt: -1, _id: -1 }).limit(15).toArray()).toEqual(
    want,
  );
  expect(await late.countDocuments({ status: 'Open' })).toBe(
    (await late.find({ status: 'Open' }).toArray()).length,
  );
});
