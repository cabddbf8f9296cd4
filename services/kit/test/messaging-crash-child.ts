/**
 * A consumer instance that dies (SIGKILL, no cleanup) inside the worst window: right after its
 * handler's write and before the event is recorded as processed and its offset committed.
 * Run by messaging-crash.test.ts; config comes from the environment.
 */
import { writeSync } from 'node:fs';
import mongoose, { Schema } from 'mongoose';
import {
  appliedEventsPlugin,
  createKafka,
  createPublisher,
  dlqTopicFor,
  startConsumer,
} from '../src/messaging';

const {
  CRASH_RUN: run = '',
  CRASH_GROUP: groupId = '',
  CRASH_TOPIC: topic = '',
  CRASH_AFTER = '100',
} = process.env;
const env = JSON.parse(process.env.DECOR_TEST_ENDPOINTS ?? '{}') as {
  mongoUrl: string;
  kafkaBrokers: string[];
};

async function main() {
  const conn = await mongoose.createConnection(env.mongoUrl, { dbName: `${run}_crash` }).asPromise();
  const schema = new Schema({ _id: String, n: Number });
  schema.plugin(appliedEventsPlugin);
  const Counters = conn.model('Counter', schema);
  const kafka = createKafka({ clientId: `${run}-child`, brokers: env.kafkaBrokers });
  const publisher = createPublisher(kafka);
  await publisher.connect();
  let handled = 0;
  await startConsumer({
    kafka,
    groupId,
    topics: [topic],
    connection: conn,
    dlq: { topic: dlqTopicFor(run, groupId), publisher },
    consumerConfig: { sessionTimeout: 6000, heartbeatInterval: 300, maxWaitTimeInMs: 200 },
    handlers: {
      Counted: async (evt, ctx) => {
        await ctx.applyOnce(Counters, { _id: evt.aggregateId }, { $inc: { n: 1 } }, { upsert: true });
        handled += 1;
        if (handled === Number(CRASH_AFTER)) {
          writeSync(1, `dying after ${evt.id}\n`);
          process.kill(process.pid, 'SIGKILL');
        }
      },
    },
  });
  writeSync(1, 'consuming\n');
}
main().catch((err) => {
  writeSync(2, `${err?.stack ?? err}\n`);
  process.exit(1);
});
