// The session cache in front of better-auth: a cookie resolved a moment ago is not looked up
// again, and an ended session (sign-out, password change, "sign out other devices", suspension,
// a row deleted by anyone) is refused at once. The same on two processes: two-process.test.ts.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createTestDatabase, testConfig, type TestApp } from '../test/app';
import { createMember, randomClientIp, signIn, type Member } from '../test/members';
import { createMailer } from './mail';
import { createAuth, type Auth } from './auth/instance';
import { createRealtime, type RealtimeService } from './realtime';
import { SessionCache, createSessionResolver, sessionCacheFor, sessionCookieKey } from './sessions';

let t: TestApp;
let auth: Auth;
let realtime: RealtimeService;
let clock = 0;
let lookups: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  const database = await createTestDatabase();
  const config = testConfig();
  realtime = createRealtime({ database, trustedOrigins: config.trustedOrigins });
  const mailer = createMailer({ database, from: config.mailFrom });
  auth = createAuth({ config, database, mailer });
  const cache = sessionCacheFor(realtime, { clock: () => clock })!;
  const sessions = createSessionResolver({ auth, database, cache });
  t = await createTestApp({ database, deps: { realtime, auth, mailer, sessions } });
  await realtime.ready();
  lookups = vi.spyOn(auth.api, 'getSession');
}, 120_000);

afterAll(() => lookups?.mockRestore());

const me = (cookie: string) =>
  t.inject({ method: 'GET', url: '/api/me', headers: { cookie }, remoteAddress: randomClientIp() });

async function eventually(check: () => Promise<boolean>, ms = 1000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

describe('the session cache', () => {
  let ann: Member;
  beforeAll(async () => {
    ann = await createMember(t);
  });

  it('resolves a cookie once, then serves it from memory until its few seconds are over', async () => {
    clock += 60_000;
    lookups.mockClear();
    expect((await me(ann.cookie)).statusCode).toBe(200);
    expect((await me(ann.cookie)).statusCode).toBe(200);
    expect((await me(ann.cookie)).json().id).toBe(ann.id);
    expect(lookups).toHaveBeenCalledTimes(1);
    clock += 3001;
    expect((await me(ann.cookie)).statusCode).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(2);
  });

  it('never serves a forged or altered cookie from the cache', async () => {
    expect((await me(ann.cookie)).statusCode).toBe(200);
    // The session's cookie alone (a sign-in also sets the device cookie: issue 32).
    const session = ann.cookie.split('; ').find((c) => c.includes('session_token'))!;
    const [name, value] = session.split('=');
    const token = decodeURIComponent(value).split('.')[0];
    const forged = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`;
    const truncated = session.slice(0, -3);
    lookups.mockClear();
    expect((await me(forged)).statusCode).toBe(401);
    expect((await me(truncated)).statusCode).toBe(401);
    expect((await me(`${session}\u0000`)).statusCode).not.toBe(200);
    expect(lookups.mock.calls.length).toBeGreaterThanOrEqual(2);
    // A new sign-in is a new cookie: resolved on its own, never mistaken for the cached one.
    const laptop = await signIn(t, ann.email, ann.password);
    lookups.mockClear();
    expect((await me(laptop)).statusCode).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(1);
  });

  it('refuses a signed-out cookie on the very next request', async () => {
    const bea = await createMember(t);
    expect((await me(bea.cookie)).statusCode).toBe(200);
    const out = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: bea.cookie },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect((await me(bea.cookie)).statusCode).toBe(401);
  });

  it('refuses the other devices at once after a password change or "sign out other devices"', async () => {
    const cy = await createMember(t);
    const phone = await signIn(t, cy.email, cy.password);
    const tablet = await signIn(t, cy.email, cy.password);
    for (const cookie of [cy.cookie, phone, tablet])
      expect((await me(cookie)).statusCode).toBe(200);
    const others = await t.inject({
      method: 'DELETE',
      url: '/api/me/sessions/others',
      headers: { cookie: tablet },
    });
    expect(others.statusCode, others.body).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(cy.cookie)).statusCode).toBe(401);
    expect((await me(tablet)).statusCode).toBe(200);

    const laptop = await signIn(t, cy.email, cy.password);
    expect((await me(laptop)).statusCode).toBe(200);
    const changed = await t.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: { cookie: tablet },
      payload: { currentPassword: cy.password, newPassword: 'another-horse-8' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(laptop)).statusCode).toBe(401);
    expect((await me(tablet)).statusCode).toBe(200);
  });

  it('refuses a session deleted by anyone else (a suspension, another process) within a second', async () => {
    const dee = await createMember(t);
    expect((await me(dee.cookie)).statusCode).toBe(200);
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [dee.id]);
    await t.database.query('delete from sessions where user_id = $1', [dee.id]);
    expect(await eventually(async () => (await me(dee.cookie)).statusCode === 401)).toBe(true);
  });

  it('forgets a member cut off by disconnectUsers (account deletion, suspension) at once', async () => {
    const eve = await createMember(t);
    expect((await me(eve.cookie)).statusCode).toBe(200);
    lookups.mockClear();
    await realtime.disconnectUsers([eve.id]);
    expect((await me(eve.cookie)).statusCode).toBe(200);
    expect(lookups).toHaveBeenCalledTimes(1);
  });
});

describe('SessionCache', () => {
  const member = (id: string, session: string) => ({
    id,
    email: `${id}@example.com`,
    displayName: id,
    username: null,
    emailVerified: true,
    session: { id: session, expiresAt: new Date(Date.now() + 86_400_000) },
  });

  it('keeps at most its size, dropping the oldest first', () => {
    let now = 0;
    const cache = new SessionCache({ maxEntries: 2, clock: () => now });
    cache.set('a', member('u1', 's1'), Infinity, now);
    cache.set('b', member('u2', 's2'), Infinity, now);
    cache.set('c', member('u3', 's3'), Infinity, now);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeNull();
    expect(cache.get('c', 0)?.id).toBe('u3');
    now = 2999;
    expect(cache.get('b', 0)?.id).toBe('u2');
    now = 3000;
    expect(cache.get('b', 0)).toBeNull();
  });

  it('lets go of expired entries nobody asks for again, within a TTL or two', async () => {
    // Each socket's handshake resolves its session once: those members must not stay cached.
    let now = 0;
    const cache = new SessionCache({ ttlMs: 20, clock: () => now });
    cache.set('a', member('u1', 's1'), Infinity, now);
    cache.set('b', member('u2', 's2'), Infinity, now);
    now = 10;
    cache.set('c', member('u3', 's3'), Infinity, now);
    expect(cache.size).toBe(3);
    now = 25; // a and b expired, c not yet
    await vi.waitFor(() => expect(cache.size).toBe(1), { timeout: 2000, interval: 10 });
    expect(cache.get('c', 0)?.id).toBe('u3');
    now = 100;
    await vi.waitFor(() => expect(cache.size).toBe(0), { timeout: 2000, interval: 10 });
    expect(cache.get('c', 0)).toBeNull();
  });

  it('does not keep a lookup that was under way when its session or member ended', () => {
    let now = 10;
    const cache = new SessionCache({ clock: () => now });
    const started = now;
    now = 11;
    cache.evictSessions(['s1']);
    cache.set('a', member('u1', 's1'), Infinity, started);
    expect(cache.get('a', 0)).toBeNull();
    cache.evictUsers(['u2']);
    cache.set('b', member('u2', 's2'), Infinity, started);
    expect(cache.get('b', 0)).toBeNull();
    now = 12;
    cache.set('b', member('u2', 's2'), Infinity, now);
    expect(cache.get('b', 0)?.id).toBe('u2');
  });

  it('serves nothing while session news cannot arrive, and nothing past the session itself', () => {
    const cache = new SessionCache({ clock: () => 0 });
    cache.set('a', member('u1', 's1'), 1000, -1);
    expect(cache.get('a', 999)?.id).toBe('u1');
    expect(cache.get('a', 1000)).toBeNull();
    cache.set('a', member('u1', 's1'), 1000, 0);
    cache.live = () => false;
    expect(cache.get('a', 0)).toBeNull();
  });

  it('keys by the session cookie only, signature included', () => {
    expect(sessionCookieKey('lang=it; scaffale.session_token=abc.sig%3D')).toBe(
      'scaffale.session_token=abc.sig%3D;',
    );
    expect(sessionCookieKey('scaffale.session_token=abc.other')).not.toBe(
      sessionCookieKey('scaffale.session_token=abc.sig'),
    );
    expect(sessionCookieKey('lang=it')).toBeNull();
    expect(sessionCookieKey(undefined)).toBeNull();
  });
});
