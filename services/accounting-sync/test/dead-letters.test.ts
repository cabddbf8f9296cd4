import { randomUUID } from 'node:crypto';
import { type EventEnvelope, UserCreated } from '@decor/contracts';
import { publishEnvelopes } from '@decor/kit';
import { eventually, RUN_ID } from '@decor/kit/testing';
import { newId, request, type Sync, staffToken, startSync, stopAndClean } from './support';

describe('dead-lettered events on /admin/sync', () => {
  let sync: Sync;
  beforeAll(async () => {
    sync = await startSync();
  });
  afterAll(() => stopAndClean(sync));

  it('lists an event its consumer gave up on, and Replay hands it to the consumer again', async () => {
    const userId = newId();
    // A UserCreated that breaks its contract (no e-mail, no name): it can never be applied.
    const broken: EventEnvelope = {
      id: randomUUID(),
      type: UserCreated.type,
      version: 1,
      aggregateType: 'user',
      aggregateId: userId,
      occurredAt: new Date().toISOString(),
      correlationId: 'test',
      payload: { userId, permissions: 'customer' },
    };
    await publishEnvelopes(sync.ctx.publisher.producer, RUN_ID, [broken]);
    const token = staffToken(sync);
    const listed = await eventually(async () => {
      const list = (await request(sync.url, '/qbo/dead-letters', { token })).body.result as Array<
        Record<string, string>
      >;
      return list.find((d) => d.aggregateId === userId);
    }, 30_000);
    expect(listed).toMatchObject({ group: 'users', type: 'UserCreated' });
    expect(listed.error).toMatch(/email|displayName/);

    const replay = await request(
      sync.url,
      `/qbo/dead-letters/${encodeURIComponent(String(listed.id))}/replay`,
      {
        method: 'POST',
        token,
      },
    );
    expect(replay).toMatchObject({ status: 202, body: { result: { id: listed.id } } });
    // Handled again: still broken, so dead-lettered again, later.
    const again = await eventually(async () => {
      const list = (await request(sync.url, '/qbo/dead-letters', { token })).body.result as Array<
        Record<string, string>
      >;
      const row = list.find((d) => d.aggregateId === userId);
      return row && String(row.failedAt) > String(listed.failedAt) ? row : undefined;
    }, 30_000);
    expect(again.id).toBe(listed.id);

    expect((await request(sync.url, '/qbo/dead-letters/nope/replay', { method: 'POST', token })).status).toBe(
      404,
    );
    const customer = sync.app.signToken({ id: newId(), permissions: 'customer', email: 'c@decor.example' });
    expect((await request(sync.url, '/qbo/dead-letters', { token: customer })).status).toBe(403);
  }, 90_000);
});
