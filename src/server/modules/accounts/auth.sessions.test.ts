import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { createTestApp } from '../../test/app';
import { createMember, randomClientIp } from '../../test/members';
import { sessions } from '../../db/schema';

/** Sessions through better-auth's mount: sign-out, the cookie's flags, idle and old sessions. */
describe('accounts: sessions', async () => {
  const testApp = await createTestApp();
  const { inject, database } = testApp;
  // Each call from its own address, so these tests never meet the per-address rate limit.
  const call = (o: InjectOptions) => inject({ remoteAddress: randomClientIp(), ...o });

  it('sign-out ends the session', async () => {
    const member = await createMember(testApp);
    const out = await call({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: member.cookie },
    });
    expect(out.statusCode).toBe(200);
    const me = await inject({ method: 'GET', url: '/api/me', headers: { cookie: member.cookie } });
    expect(me.statusCode).toBe(401);
    expect(me.json().error.code).toBe('unauthorized');
  });

  it('the session cookie is httpOnly and SameSite=Lax', async () => {
    const email = 'cookie.check@example.com';
    await createMember(testApp, { email, password: 'cookie-pass' });
    const res = await call({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email, password: 'cookie-pass' },
    });
    const setCookie = [res.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/scaffale\.session_token=[^;]+;.*HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
  });

  it('an idle session (expired) and a session older than 30 days are anonymous', async () => {
    const idle = await createMember(testApp);
    await database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, idle.id));
    const idleMe = await inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: idle.cookie },
    });
    expect(idleMe.statusCode).toBe(401);

    const old = await createMember(testApp);
    await database.db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '31 days'` })
      .where(eq(sessions.userId, old.id));
    const oldMe = await inject({ method: 'GET', url: '/api/me', headers: { cookie: old.cookie } });
    expect(oldMe.statusCode).toBe(401);
    const left = await database.db.select().from(sessions).where(eq(sessions.userId, old.id));
    expect(left).toHaveLength(0);

    const young = await createMember(testApp);
    await database.db
      .update(sessions)
      .set({ createdAt: sql`now() - interval '29 days'` })
      .where(eq(sessions.userId, young.id));
    const youngMe = await inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: young.cookie },
    });
    expect(youngMe.statusCode).toBe(200);
  });
});
