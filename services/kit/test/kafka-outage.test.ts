import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { defineEvent, UNAVAILABLE_MESSAGES } from '@decor/contracts';
import { Type } from '@sinclair/typebox';
import type { Kafka } from 'kafkajs';
import mongoose, { type Connection, type Model, Schema } from 'mongoose';
import { createServiceApp, DependencyUnavailableError, type ServiceApp } from '../src/http';
import {
  createKafka,
  createPublisher,
  ensureTopics,
  eventsPushed,
  MAX_PENDING_EVENTS,
  newEvent,
  type OutboxFields,
  OutboxFullError,
  OutboxRelay,
  outboxHasRoom,
  outboxPlugin,
  type Publisher,
  roomCondition,
  topicFor,
  updateOneWithEvents,
  waitForCatchUp,
} from '../src/messaging';
import { type TcpRelay, tcpRelay } from '../src/tcp-relay';
import { testEndpoints, topicEvents } from '../src/testing';
import { call, listen } from './http-helpers';

/**
 * Kafka out of reach (every connection of this file's client goes through a relay that the test
 * cuts): request paths answer 503 within 3 s, writes keep their events in the outbox (at most
 * MAX_PENDING_EVENTS per document), and the relay publishes them exactly once when Kafka is back.
 */
const KAFKA_BOUND_MS = 3000;
const Noted = defineEvent('OutageNoted', 1, 'user', Type.Object({ seq: Type.Integer() }));

interface NoteDoc extends OutboxFields {
  _id: string;
  seq: number;
}

describe('the pending-events cap (pure rule)', () => {
  it('lets a document hold up to MAX_PENDING_EVENTS pending events, no more', () => {
    expect(MAX_PENDING_EVENTS).toBe(100);
    expect(outboxHasRoom(0, 1)).toBe(true);
    expect(outboxHasRoom(99, 1)).toBe(true);
    expect(outboxHasRoom(100, 1)).toBe(false);
    expect(outboxHasRoom(98, 3)).toBe(false);
    expect(outboxHasRoom(0, 101)).toBe(false);
  });

  it('as a query condition: no element at index cap - adding', () => {
    expect(roomCondition(1)).toEqual({ 'outbox.99': { $exists: false } });
    expect(roomCondition(3, 10)).toEqual({ 'outbox.7': { $exists: false } });
    expect(roomCondition(11, 10)).toEqual({ _id: { $in: [] } });
  });

  it('counts the events an update pushes', () => {
    expect(eventsPushed({ $set: { a: 1 } })).toBe(0);
    expect(eventsPushed({ $push: { outbox: { id: 'e' } } })).toBe(1);
    expect(eventsPushed({ $push: { outbox: { $each: [{}, {}, {}] } } })).toBe(3);
    expect(eventsPushed({ $push: { other: 1 } })).toBe(0);
  });
});

const run = `t${randomBytes(4).toString('hex')}`;
const topic = topicFor(run, 'user');
let relay: TcpRelay;
let conn: Connection;
let Notes: Model<NoteDoc>;
let kafka: Kafka;
let direct: Kafka;
let publisher: Publisher;
let outbox: OutboxRelay;
let app: ServiceApp;
let base: string;

const event = (id: string, seq: number) =>
  newEvent(Noted, { aggregateId: id, payload: { seq }, correlationId: `${run}-${id}-${seq}` });

beforeAll(async () => {
  const e = testEndpoints();
  const [host, port] = (e.kafkaBrokers[0] as string).split(':') as [string, string];
  relay = await tcpRelay({ host, port: Number(port) });
  // Every connection this client opens (the bootstrap one and the broker the metadata names) goes
  // through the relay, so cutting it takes Kafka away from this client only.
  kafka = createKafka({
    clientId: run,
    brokers: [`127.0.0.1:${relay.port}`],
    config: { socketFactory: ({ onConnect }) => connect({ host: '127.0.0.1', port: relay.port }, onConnect) },
  });
  direct = createKafka({ clientId: `${run}-reader`, brokers: e.kafkaBrokers });
  await ensureTopics(direct, [topic]);
  conn = await mongoose.createConnection(e.mongoUrl, { dbName: `${run}_kafka_outage` }).asPromise();
  const schema = new Schema<NoteDoc>({ _id: String, seq: { type: Number, default: 0 } });
  schema.plugin(outboxPlugin);
  Notes = conn.model<NoteDoc>('Note', schema);
  publisher = createPublisher(kafka);
  await publisher.connect();
  outbox = new OutboxRelay({ models: [Notes], publisher, topicPrefix: run, pollIntervalMs: 200 });
  outbox.start();

  const admin = kafka.admin();
  await admin.connect();
  app = await createServiceApp({ name: 'kafka-outage', logLevel: 'silent' });
  // What an order submission does first: wait until the carts consumer has read the topic's end.
  app.post('/submit', async () => {
    await waitForCatchUp({ admin, connection: conn, groupId: `${run}.nobody`, topic });
    return { result: 'ok' };
  });
  // A write whose events other services read next (cart, user, catalogue writes).
  app.post('/note/:id', async (request) => {
    const { id } = request.params as { id: string };
    const doc = await Notes.findOneAndUpdate(
      { _id: id },
      { $inc: { seq: 1 }, $push: { outbox: event(id, Date.now()) } },
      { new: true },
    );
    if (!doc) throw new Error('no such note');
    outbox.notify(id);
    await outbox.flushed();
    return { result: doc.seq };
  });
  app.addHook('onClose', () => admin.disconnect());
  base = await listen(app);
});

afterAll(async () => {
  await relay?.restore();
  await app?.close();
  await outbox?.stop();
  await publisher?.disconnect();
  const admin = direct.admin();
  await admin.connect();
  await admin.deleteTopics({ topics: [topic] }).catch(() => {});
  await admin.disconnect();
  await conn?.dropDatabase();
  await conn?.close();
  await relay?.close();
});

it('a write that would leave more than MAX_PENDING_EVENTS pending is refused (503) and changes nothing', async () => {
  const id = `${run}-full`;
  await Notes.create({
    _id: id,
    seq: 7,
    outbox: Array.from({ length: MAX_PENDING_EVENTS - 1 }, (_, i) => event(id, i)),
    // Leased far ahead: the relay leaves it alone while the test fills it.
    outboxLeaseUntil: new Date(Date.now() + 3_600_000),
    outboxLeaseOwner: 'test',
  });
  const push = (n: number) =>
    Notes.updateOne(
      { _id: id },
      {
        $inc: { seq: 1 },
        $push: { outbox: { $each: Array.from({ length: n }, (_, i) => event(id, 1000 + i)) } },
      },
    );
  await expect(push(2)).rejects.toBeInstanceOf(OutboxFullError);
  expect((await push(1)).modifiedCount).toBe(1);
  const refused = Notes.findOneAndUpdate({ _id: id }, { $push: { outbox: event(id, 2000) } });
  await expect(refused).rejects.toMatchObject({ status: 503, message: UNAVAILABLE_MESSAGES.backlog });
  const after = await Notes.findById(id).lean();
  expect(after?.outbox).toHaveLength(MAX_PENDING_EVENTS);
  expect(after?.seq).toBe(8);
  // A guard that does not match is still "no match", not "full".
  expect((await Notes.updateOne({ _id: 'nobody' }, { $push: { outbox: event('x', 1) } })).matchedCount).toBe(
    0,
  );
  await Notes.deleteOne({ _id: id });
});

it('the same cap holds for a write with events straight through the driver (updateOneWithEvents)', async () => {
  const id = `${run}-full-driver`;
  await Notes.create({
    _id: id,
    seq: 7,
    outbox: Array.from({ length: MAX_PENDING_EVENTS - 2 }, (_, i) => event(id, i)),
    outboxLeaseUntil: new Date(Date.now() + 3_600_000),
    outboxLeaseOwner: 'test',
  });
  const push = (n: number, filter: Record<string, unknown> = { _id: id }) =>
    updateOneWithEvents(Notes.collection, filter, {
      $set: { seq: 8 },
      $push: { outbox: { $each: Array.from({ length: n }, (_, i) => event(id, 1000 + i)) } },
    });
  await expect(push(3)).rejects.toBeInstanceOf(OutboxFullError);
  await expect(push(MAX_PENDING_EVENTS + 1)).rejects.toBeInstanceOf(OutboxFullError);
  expect((await Notes.findById(id).lean())?.seq).toBe(7); // refused: nothing changed
  await expect(push(2)).resolves.toBe(true);
  const after = await Notes.findById(id).lean();
  expect(after?.outbox).toHaveLength(MAX_PENDING_EVENTS);
  expect(after?.seq).toBe(8);
  // Full and matched by its guard: refused; a guard that matches nothing is "no match", not "full".
  await expect(push(1, { _id: id, seq: 8 })).rejects.toBeInstanceOf(OutboxFullError);
  await expect(push(1, { _id: id, seq: 7 })).resolves.toBe(false);
  await Notes.deleteOne({ _id: id });
});

it(`while Kafka is away a submission answers 503 within ${KAFKA_BOUND_MS} ms, writes land and their events go out once after`, async () => {
  const id = `${run}-note`;
  await Notes.create({ _id: id });
  expect((await call(base, '/submit', { method: 'POST' })).status).toBe(200);
  expect((await call(base, `/note/${id}`, { method: 'POST' })).status).toBe(200);

  await relay.cut('refuse');
  for (let i = 0; i < 2; i++) {
    const started = Date.now();
    const answer = await call(base, '/submit', { method: 'POST' });
    expect(answer).toMatchObject({ status: 503, body: { message: UNAVAILABLE_MESSAGES.events } });
    expect(Date.now() - started).toBeLessThan(KAFKA_BOUND_MS);
  }
  // Writes are accepted meanwhile: their events wait in the document.
  for (let i = 0; i < 5; i++) {
    const started = Date.now();
    const answer = await call(base, `/note/${id}`, { method: 'POST' });
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(KAFKA_BOUND_MS);
  }
  expect((await Notes.findById(id).lean())?.outbox.length).toBeGreaterThan(0);

  await relay.restore();
  const drained = async () => {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      if ((await Notes.findById(id).lean())?.outbox.length === 0) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  };
  expect(await drained()).toBe(true);
  // Everything on the topic now (read until a quiet 5 s): each event exactly once.
  const published = await topicEvents(direct, topic, () => false, { timeoutMs: 5000 });
  const mine = published.filter((e) => e.aggregateId === id);
  expect(mine).toHaveLength(6);
  expect(new Set(mine.map((e) => e.id)).size).toBe(6);
  // …and answers again.
  const deadline = Date.now() + 30_000;
  let again = await call(base, '/submit', { method: 'POST' });
  while (again.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    again = await call(base, '/submit', { method: 'POST' });
  }
  expect(again.status).toBe(200);
}, 150_000);

it('DependencyUnavailableError is a 503 with the dependency message', () => {
  expect(new DependencyUnavailableError('events')).toMatchObject({
    status: 503,
    message: UNAVAILABLE_MESSAGES.events,
  });
});
