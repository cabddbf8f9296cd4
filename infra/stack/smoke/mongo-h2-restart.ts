/**
 * By-hand smoke (not part of jest): the H2 backend that `npm start` uses keeps a document across
 * a MongoDB restart, both after a clean stop (SIGTERM) and after kill -9 once the write has been
 * committed (H2's MVStore commits in the background about every second).
 *   npx tsx infra/stack/smoke/mongo-h2-restart.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mongoose from 'mongoose';
import { startMongo } from '../src/mongo';
import { freePort } from '../src/ports';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'decor-h2-'));
  const file = join(dir, 'decor.mv.db');
  const port = await freePort();
  const log = (line: string) => console.log(line);
  const start = () => startMongo({ port, storage: { kind: 'h2', file }, log });
  const collection = async () => {
    const conn = await mongoose
      .createConnection(`mongodb://127.0.0.1:${port}`, { dbName: 'smoke' })
      .asPromise();
    return { conn, items: conn.collection<{ _id: string; name: string }>('items') };
  };
  try {
    let mongo = await start();
    let { conn, items } = await collection();
    await items.insertOne({ _id: 'arch-1', name: 'Wedding arch' });
    await conn.close();
    await mongo.stop(); // SIGTERM: the shutdown hook closes the MVStore
    console.log('stopped with SIGTERM');

    mongo = await start();
    ({ conn, items } = await collection());
    const afterStop = await items.findOne({ _id: 'arch-1' });
    console.log('after a clean restart:', afterStop);
    await items.insertOne({ _id: 'chair-1', name: 'Chiavari chair' });
    await new Promise((r) => setTimeout(r, 1500)); // let the background commit run
    await conn.close();
    process.kill(mongo.pid, 'SIGKILL');
    await mongo.exited;
    console.log('killed with SIGKILL');

    mongo = await start();
    ({ conn, items } = await collection());
    const afterKill = await items.find().sort({ _id: 1 }).toArray();
    console.log('after kill -9 and restart:', afterKill);
    await conn.close();
    await mongo.stop();

    const ok = afterStop?.name === 'Wedding arch' && afterKill.length === 2;
    console.log(ok ? 'OK: H2 kept the documents' : 'FAILED: documents lost');
    process.exitCode = ok ? 0 : 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
