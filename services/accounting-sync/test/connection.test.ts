import { signConnectState } from '@decor/contracts';
import { CONNECTION_ID } from '../src/store/connection-model';
import {
  connect,
  consent,
  emulatorCall,
  newId,
  newRealm,
  qboStats,
  request,
  type Sync,
  staffToken,
  startSync,
  stopAndClean,
} from './support';

const RENEWED = 'Your session with QuickBooks has been renewed! Please try your previous request again.';
const SIGN_IN_FAILED = 'The QuickBooks sign-in could not be verified. Please sign in again.';

describe('the staff connection to QuickBooks', () => {
  let sync: Sync;
  let realmId: string;

  beforeAll(async () => {
    realmId = await newRealm('Connection Co');
    sync = await startSync();
  });
  afterAll(() => stopAndClean(sync));

  it('is not connected before anyone connects, and customers may not see it', async () => {
    const status = await request(sync.url, '/qbo/status', { token: staffToken(sync) });
    expect(status.status).toBe(200);
    expect(status.body.result).toMatchObject({ connected: false, realmId: null, accessTokenExpiresAt: null });
    const customer = sync.app.signToken({ id: newId(), permissions: 'customer', email: 'c@decor.example' });
    expect((await request(sync.url, '/qbo/status', { token: customer })).status).toBe(403);
    expect((await request(sync.url, '/qbo/status')).status).toBe(401);
  });

  it('connects through the consent page and keeps the tokens to itself, encrypted', async () => {
    const answer = await connect(sync, realmId);
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual({ connected: true, realmId, companyName: 'Connection Co' });
    expect(JSON.stringify(answer.body)).not.toMatch(/token/i);
    expect([...answer.headers.keys()].filter((h) => /access_token|refresh_token|realm_id/.test(h))).toEqual(
      [],
    );

    const status = await request(sync.url, '/qbo/status', { token: staffToken(sync) });
    expect(status.body.result).toMatchObject({ connected: true, realmId, companyName: 'Connection Co' });
    expect(Date.parse(status.body.result.accessTokenExpiresAt)).toBeGreaterThan(Date.now());

    const stored = await sync.ctx.connections.findById(CONNECTION_ID).lean();
    expect(stored?.accessToken).toMatch(/^v1\./);
    expect(stored?.refreshToken).toMatch(/^v1\./);
    const plain = sync.ctx.cipher.decrypt(stored?.accessToken as string);
    expect(stored?.accessToken).not.toContain(plain);
  });

  it('refuses a replayed, forged, expired or someone else’s state with 400 and stores nothing', async () => {
    const staff = newId();
    const token = staffToken(sync, staff);
    const generation = (await sync.ctx.connections.findById(CONNECTION_ID).lean())?.generation;

    const start = await request(sync.url, '/qbo/connect', { token });
    const back = await consent(start.body.result.url, realmId);
    expect((await request(sync.url, `/auth/accessToken${back.search}`, { token })).status).toBe(200);
    const replay = await request(sync.url, `/auth/accessToken${back.search}`, { token });
    expect(replay).toMatchObject({ status: 400, body: { message: SIGN_IN_FAILED } });

    const other = await consent(
      (await request(sync.url, '/qbo/connect', { token })).body.result.url,
      realmId,
    );
    const asSomeoneElse = await request(sync.url, `/auth/accessToken${other.search}`, {
      token: staffToken(sync),
    });
    expect(asSomeoneElse.status).toBe(400);

    const forged = new URL(other.href);
    forged.searchParams.set('state', `${forged.searchParams.get('state')?.slice(0, -2)}xx`);
    expect((await request(sync.url, `/auth/accessToken${forged.search}`, { token })).status).toBe(400);

    const expired = new URL(other.href);
    expired.searchParams.set(
      'state',
      signConnectState(sync.ctx.config.JWT_SECRET, staff, Date.now() - 11 * 60_000),
    );
    expect((await request(sync.url, `/auth/accessToken${expired.search}`, { token })).status).toBe(400);

    const denied = new URL(other.href);
    denied.search = `?error=access_denied&state=${other.searchParams.get('state')}`;
    expect((await request(sync.url, `/auth/accessToken${denied.search}`, { token })).status).toBe(400);

    // Only the first, valid callback stored tokens.
    expect((await sync.ctx.connections.findById(CONNECTION_ID).lean())?.generation).toBe(
      (generation ?? 0) + 1,
    );
  });

  it('renews on demand, and two instances renewing at once refresh once', async () => {
    const second = await startSync({ MONGO_DB: sync.ctx.config.MONGO_DB });
    try {
      const before = (await qboStats(realmId)).grants.refresh_token;
      const token = staffToken(sync);
      const answers = await Promise.all([
        request(sync.url, '/qbo/get/renewToken', { token }),
        request(second.url, '/qbo/get/renewToken', { token }),
      ]);
      for (const a of answers) expect(a).toMatchObject({ status: 200, body: { message: RENEWED } });
      // Both asked from the same stored generation: the second found it renewed and used that.
      expect((await qboStats(realmId)).grants.refresh_token).toBe(before + 1);
    } finally {
      await second.shutdown('test over');
    }
  });

  it('answers the session-expired 401 once QuickBooks revoked the connection, and Connect works again', async () => {
    await emulatorCall(`/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    const token = staffToken(sync);
    const renew = await request(sync.url, '/qbo/get/renewToken', { token });
    expect(renew.status).toBe(401);
    expect(renew.headers.get('qbo-session-expired')).toBe('true');
    expect(renew.body).toEqual({ message: 'There was an error renewing your token' });

    const status = await request(sync.url, '/qbo/status', { token });
    expect(status.body.result).toMatchObject({ connected: false });
    const categories = await request(sync.url, '/qbo/categories', { token });
    expect(categories.status).toBe(401);
    expect(categories.headers.get('qbo-session-expired')).toBe('true');
    expect(categories.body.message).toBe(
      'Your session with QuickBooks has expired, and the request was not completed!',
    );

    expect((await connect(sync, realmId)).status).toBe(200);
    expect((await request(sync.url, '/qbo/categories', { token })).status).toBe(200);
  });

  it('refuses with 409 an admin signing in to another company, even once the connection is lost; a superadmin may switch', async () => {
    const other = await newRealm('Someone Else Co');
    const OTHER_COMPANY =
      'QuickBooks is connected to another company. Only a superadmin can connect a different company.';
    const refusedAdmin = await connect(sync, other);
    expect(refusedAdmin).toMatchObject({ status: 409, body: { message: OTHER_COMPANY } });
    // Refused before the code was exchanged: the other company granted nothing.
    expect((await qboStats(other)).grants.authorization_code).toBe(0);
    expect((await request(sync.url, '/qbo/status', { token: staffToken(sync) })).body.result).toMatchObject({
      connected: true,
      realmId,
    });

    // A lost connection still names its company: an admin cannot move the sync elsewhere meanwhile.
    await emulatorCall(`/__emulator/realms/${realmId}/revoke`, { method: 'POST' });
    await request(sync.url, '/qbo/get/renewToken', { token: staffToken(sync) });
    expect((await request(sync.url, '/qbo/status', { token: staffToken(sync) })).body.result.connected).toBe(
      false,
    );
    expect((await connect(sync, other)).status).toBe(409);
    // The same company again is fine for any admin; a superadmin may switch.
    expect((await connect(sync, realmId)).status).toBe(200);
    const superadmin = staffToken(sync, newId(), 'superadmin');
    const switched = await connect(sync, other, superadmin);
    expect(switched).toMatchObject({ status: 200, body: { result: { realmId: other } } });
  });
});
