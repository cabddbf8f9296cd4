import { request, type Sync, staffToken, startSync, stopAndClean } from './support';

describe('the queue dashboard (Bull Board) for superadmins', () => {
  let sync: Sync;
  beforeAll(async () => {
    sync = await startSync();
  });
  afterAll(() => stopAndClean(sync));

  it('opens with a short cookie session that only superadmins get', async () => {
    expect(
      (await request(sync.url, '/qbo/board-session', { method: 'POST', token: staffToken(sync) })).status,
    ).toBe(403);
    expect((await fetch(`${sync.url}/admin/queues`)).status).toBe(401);

    const session = await request(sync.url, '/qbo/board-session', {
      method: 'POST',
      token: staffToken(sync, undefined, 'superadmin'),
    });
    expect(session.status).toBe(200);
    const cookie = session.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      /^decor_queue_board=[^;]+; Path=\/api\/admin\/queues; Max-Age=900; HttpOnly; SameSite=Strict/,
    );
    const headers = { cookie: cookie.split(';')[0] as string };

    const page = await fetch(`${sync.url}/admin/queues`, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('QuickBooks sync');
    const queues = await fetch(`${sync.url}/admin/queues/api/queues`, { headers });
    expect(queues.status).toBe(200);
    const body = (await queues.json()) as { queues: Array<{ name: string }> };
    expect(body.queues.map((q) => q.name)).toContain('qbo-sync');

    // The board's token lives 15 minutes, has its own audience and is a session nowhere else.
    const boardToken = headers.cookie.split('=')[1] as string;
    const claims = JSON.parse(Buffer.from(boardToken.split('.')[1] as string, 'base64url').toString()) as {
      iat: number;
      exp: number;
      aud: string;
    };
    expect({ lifetime: claims.exp - claims.iat, aud: claims.aud }).toEqual({
      lifetime: 900,
      aud: 'decor-queue-board',
    });
    expect(
      (await request(sync.url, '/qbo/board-session', { method: 'POST', token: boardToken })).status,
    ).toBe(401);
    expect((await request(sync.url, '/qbo/connect', { token: boardToken })).status).toBe(401);

    // And a session token, even a superadmin's, does not open the board.
    for (const role of ['admin', 'superadmin'] as const) {
      const sessionCookie = `decor_queue_board=${staffToken(sync, undefined, role)}`;
      expect(
        (await fetch(`${sync.url}/admin/queues/api/queues`, { headers: { cookie: sessionCookie } })).status,
      ).toBe(401);
    }
    expect(
      (
        await fetch(`${sync.url}/admin/queues/api/queues`, {
          headers: { cookie: 'decor_queue_board=forged' },
        })
      ).status,
    ).toBe(401);
  });
});
