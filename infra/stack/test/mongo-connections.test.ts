/**
 * The embedded MongoDB server runs each command on its connection's Netty event loop and hands new
 * connections to the loops in turn. With Netty's default of 2 loops per core (4 here), a new
 * connection often landed on the loop of another client's long command and waited for it: on a
 * loaded run, past the services' 2.5 s connect timeout ("connection 1 to 127.0.0.1:… timed out" in
 * two files at once while a third inserted 10,000 users). mongo.ts gives the server 64 loops.
 */
import mongoose from 'mongoose';
import { startMongo } from '../src/mongo';
import { freePort } from '../src/ports';
import type { RunningProcess } from '../src/process';

const { MongoClient } = mongoose.mongo;

let mongo: RunningProcess;
let url: string;

beforeAll(async () => {
  const port = await freePort();
  mongo = await startMongo({ port, storage: { kind: 'memory' }, log: () => {}, quiet: true });
  url = `mongodb://127.0.0.1:${port}`;
}, 60_000);

afterAll(() => mongo?.stop());

test("a new connection is answered while another client's long command runs", async () => {
  const busy = new MongoClient(url, { maxPoolSize: 1 });
  try {
    const docs = busy.db('busy').collection('docs');
    await docs.insertMany(Array.from({ length: 6000 }, (_, i) => ({ i, k: -1 - i })));
    // One long command: the server joins the collection with itself by scanning it once per document
    // (6,000², about 5 s here): long beside eight connects even on a loaded machine. With a scan of
    // a second, one ping of a loaded CI run came after it (2026-12-05), with the 64 loops.
    let longEnded = 0;
    const long = docs
      .aggregate([
        { $lookup: { from: 'docs', localField: 'i', foreignField: 'k', as: 'same' } },
        { $match: { 'same.0': { $exists: true } } },
      ])
      .toArray()
      .then(() => {
        longEnded = Date.now();
      });
    await new Promise((r) => setTimeout(r, 50));
    // Eight clients connect (each with its monitoring connections) and ping another database.
    const answered = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const client = new MongoClient(url, { maxPoolSize: 1, connectTimeoutMS: 60_000 });
        try {
          await client.db('other').command({ ping: 1 });
          return Date.now();
        } finally {
          await client.close();
        }
      }),
    );
    await long;
    expect(longEnded).toBeGreaterThan(0);
    // With 4 loops, some of the eight answered only once the long command had ended.
    expect(answered.filter((at) => at >= longEnded)).toEqual([]);
  } finally {
    await busy.close();
  }
}, 120_000);
