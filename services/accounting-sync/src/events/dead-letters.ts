import { randomUUID } from 'node:crypto';
import type { DeadLetterView } from '@decor/contracts';
import { PROCESSED_EVENTS_COLLECTION, type ProcessedRecord, withinMs } from '@decor/kit';
import type { KafkaMessage } from 'kafkajs';
import type { AccountingSyncContext } from '../context';

/** A replay's connect and send each get this long before the staff are told Kafka is unavailable. */
const KAFKA_CALL_MS = 2500;

/** One dead-lettered event as staff see it (contracts' view). */
export type DeadLetter = DeadLetterView;

/**
 * Events this service's consumers gave up on. The kit records every handled event per consumer group
 * (`processed_events`); the dead-lettered ones are listed from there, newest first.
 */
export async function listDeadLetters(ctx: AccountingSyncContext, limit = 200): Promise<DeadLetter[]> {
  const groupPrefix = `${ctx.config.KAFKA_TOPIC_PREFIX}.${ctx.name}.`;
  const rows = await ctx.connection
    .collection<ProcessedRecord>(PROCESSED_EVENTS_COLLECTION)
    .find({
      outcome: 'dead-lettered',
      groupId: { $regex: `^${groupPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}` },
    })
    .sort({ processedAt: -1 })
    .limit(limit)
    .toArray();
  return rows.map((r) => ({
    id: r._id,
    group: r.groupId.slice(groupPrefix.length),
    type: r.type,
    aggregateId: r.aggregateId ?? '',
    error: r.error ?? '',
    failedAt: r.processedAt.toISOString(),
  }));
}

/** Reads one message back from its topic (a throw-away consumer seeking to its offset). */
async function readMessage(
  ctx: AccountingSyncContext,
  topic: string,
  partition: number,
  offset: string,
): Promise<KafkaMessage> {
  const consumer = ctx.kafka.consumer({
    groupId: `${ctx.config.KAFKA_TOPIC_PREFIX}.${ctx.name}.replay.${randomUUID()}`,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    // Kafka out of reach: a 503 within seconds, not kafkajs' retries for half a minute.
    await withinMs(consumer.connect(), KAFKA_CALL_MS, 'events');
    await consumer.subscribe({ topic, fromBeginning: true });
    return await new Promise<KafkaMessage>((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`message ${topic}/${partition}@${offset} could not be read`)),
        20_000,
      );
      consumer
        .run({
          eachMessage: async ({ partition: p, message }) => {
            if (p === partition && message.offset === offset) resolve(message);
          },
        })
        .then(() => consumer.seek({ topic, partition, offset }))
        .catch(reject);
    });
  } finally {
    // Whichever way it ended (a failed run or seek too): no 20 s timer left holding the process.
    clearTimeout(timer);
    await consumer.disconnect();
  }
}

/**
 * Replays a dead-lettered event: the group forgets it was handled, and the original message goes
 * back on its topic. Other groups on that topic already applied it and skip it by its event id;
 * this group handles it again (and dead-letters it again if the cause is still there).
 */
export async function replayDeadLetter(ctx: AccountingSyncContext, id: string): Promise<boolean> {
  const processed = ctx.connection.collection<ProcessedRecord>(PROCESSED_EVENTS_COLLECTION);
  const row = await processed.findOne({ _id: id, outcome: 'dead-lettered' });
  if (!row?.groupId.startsWith(`${ctx.config.KAFKA_TOPIC_PREFIX}.${ctx.name}.`)) return false;
  const message = await readMessage(ctx, row.topic, row.partition, row.offset);
  // Forget first: a replay handled before this delete would otherwise be skipped as a duplicate.
  if ((await processed.deleteOne({ _id: id, outcome: 'dead-lettered' })).deletedCount === 0) return false;
  try {
    await withinMs(
      ctx.publisher.producer.send({
        topic: row.topic,
        acks: -1,
        messages: [
          { key: message.key, value: message.value, headers: { ...message.headers, 'replayed-from': id } },
        ],
      }),
      KAFKA_CALL_MS,
      'events',
    );
  } catch (err) {
    await processed.insertOne(row).catch(() => {});
    throw err;
  }
  return true;
}
