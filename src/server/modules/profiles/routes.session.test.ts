import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { createMember, type Member } from '../../test/members';
import { grantAdmin } from '../moderation';

describe('GET /api/session', () => {
  let t: TestApp;
  let member: Member;
  let admin: Member;
  const session = (cookie?: string) =>
    t.inject({ method: 'GET', url: '/api/session', headers: cookie ? { cookie } : {} });

  beforeAll(async () => {
    t = await createTestApp();
    [member, admin] = await Promise.all([createMember(t), createMember(t)]);
    expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
  });

  it('answers a visitor 200 with no user, never cached', async () => {
    const res = await session();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: null, admin: false });
    expect(res.headers['cache-control']).toBe('private, no-store');
    // A cookie that names no session is a visitor too, not an error.
    const stale = await session('scaffale.session_token=forged.value');
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual({ user: null, admin: false });
  });

  it('answers a member with their own Me, as GET /api/me does, and not an admin', async () => {
    const res = await session(member.cookie);
    expect(res.statusCode).toBe(200);
    const me = await t.inject({
      method: 'GET',
      url: '/api/me',
      headers: { cookie: member.cookie },
    });
    expect(res.json()).toEqual({ user: me.json(), admin: false });
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('tells an admin they are one', async () => {
    const res = await session(admin.cookie);
    expect(res.json()).toMatchObject({ user: { id: admin.id }, admin: true });
  });

  it('keeps GET /api/me answering 401 to API clients without a session', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/me' })).statusCode).toBe(401);
  });

  it('is documented in the OpenAPI document', async () => {
    const paths = (await t.inject({ method: 'GET', url: '/api/openapi.json' })).json().paths;
    expect(paths['/api/session']).toHaveProperty('get');
  });
});
