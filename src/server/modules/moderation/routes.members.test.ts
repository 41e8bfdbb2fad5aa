import { describe, expect, it } from 'vitest';
import { createMember, randomClientIp } from '../../test/members';
import { createListing } from '../../test/listings';
import { mustOpen, openSocket } from '../../platform/realtime/testing';
import {
  t,
  req,
  admin,
  reader,
  reason,
  report,
  outboxFor,
  directRoom,
  useFixture,
} from './routes.fixture';

useFixture();

describe('the audit log', () => {
  it('cannot be edited or deleted, even straight in SQL', async () => {
    const [row] = await t.database.query<{ id: number }>(
      'select id from moderation_log order by id limit 1',
    );
    expect(row).toBeTruthy();
    await expect(
      t.database.query(`update moderation_log set reason = 'nothing happened' where id = $1`, [
        row.id,
      ]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.database.query('delete from moderation_log where id = $1', [row.id]),
    ).rejects.toThrow(/append-only/);
    await expect(t.database.query('truncate moderation_log')).rejects.toThrow(/append-only/);
    const [still] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from moderation_log where id = $1',
      [row.id],
    );
    expect(still.n).toBe(1);
  });
});

describe('suspending a member', () => {
  it('closes their live sockets at once (4401) and a new handshake is refused; others stay', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = t.config.publicUrl;
    const gone = await createMember(t, { displayName: 'Gina Gone' });
    const stays = await createMember(t, { displayName: 'Sara Stays' });
    const tab1 = await mustOpen(base, { cookie: gone.cookie, origin });
    const tab2 = await mustOpen(base, { cookie: gone.cookie, origin });
    const otherTab = await mustOpen(base, { cookie: stays.cookie, origin });

    const res = await req('POST', `/api/admin/members/${gone.id}/suspend`, admin, reason);
    expect(res.statusCode, res.body).toBe(200);
    expect(await tab1.closed).toBe(4401);
    expect(await tab2.closed).toBe(4401);
    // The browser may try once more: its session is gone, so the handshake answers 401.
    const retry = await openSocket(base, { cookie: gone.cookie, origin });
    expect(retry.opened).toBe(false);
    if (!retry.opened) expect(retry.status).toBe(401);
    expect(otherTab.ws.readyState).toBe(otherTab.ws.OPEN);
    otherTab.ws.close();
    await otherTab.closed;
  });

  it('ends their sessions, blocks sign-in and hides them everywhere, until unsuspended', async () => {
    const bad = await createMember(t, { displayName: 'Bruno Bad', username: 'bruno_bad' });
    const friend = await createMember(t, { displayName: 'Fede Friend' });
    const listing = await createListing(t, bad, { title: 'Scatole vuote' });
    const { roomId } = await directRoom(bad, friend, 'Ciao!');
    const seen = async () => {
      const library = (await req('GET', '/api/listings?q=scatole')).json();
      const friends = (await req('GET', '/api/connections', friend)).json();
      const search = (await req('GET', '/api/connections/search?q=bruno_bad', friend)).json();
      const rooms = (await req('GET', '/api/chats/rooms', friend)).json();
      return {
        library: library.items.some((i: { id: string }) => i.id === listing.id),
        profile: (await req('GET', `/api/users/${bad.id}/profile`)).statusCode,
        listings: (await req('GET', `/api/users/${bad.id}/listings`)).statusCode,
        detail: (await req('GET', `/api/listings/${listing.id}`)).statusCode,
        friends: friends.items.some((f: { member: { id: string } }) => f.member.id === bad.id),
        friendsTotal: friends.total,
        search: search.items.some((f: { member: { id: string } }) => f.member.id === bad.id),
        rooms: rooms.items.some((r: { id: string }) => r.id === roomId),
      };
    };
    expect(await seen()).toEqual({
      library: true,
      profile: 200,
      listings: 200,
      detail: 200,
      friends: true,
      friendsTotal: 1,
      search: true,
      rooms: true,
    });
    expect((await req('GET', '/api/connections', bad)).statusCode).toBe(200);

    const byMember = await req('POST', `/api/admin/members/${bad.id}/suspend`, reader, reason);
    expect(byMember.statusCode).toBe(404);
    const self = await req('POST', `/api/admin/members/${admin.id}/suspend`, admin, reason);
    expect(self.statusCode).toBe(400);

    const res = await req('POST', `/api/admin/members/${bad.id}/suspend`, admin, {
      reason: 'Repeated scams reported by several members.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await req('POST', `/api/admin/members/${bad.id}/suspend`, admin, reason)).statusCode,
    ).toBe(409);

    // The old cookie no longer works, and signing in again is refused with a clear message.
    expect((await req('GET', '/api/connections', bad)).statusCode).toBe(401);
    const sessions = await t.database.query('select 1 from sessions where user_id = $1', [bad.id]);
    expect(sessions).toHaveLength(0);
    for (const [lang, text] of [
      ['en', /This account is suspended/],
      ['it', /Questo account è sospeso/],
    ] as const) {
      const signIn = await t.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        remoteAddress: randomClientIp(),
        headers: { 'accept-language': lang },
        payload: { email: bad.email, password: bad.password },
      });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json().error.message).toMatch(text);
      expect(String(signIn.headers['set-cookie'] ?? '')).not.toMatch(/session_token=[^;]/);
    }
    // A wrong password says nothing about the suspension.
    const wrong = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: randomClientIp(),
      payload: { email: bad.email, password: 'wrong-password-1' },
    });
    expect(wrong.statusCode).toBe(401);

    expect(await seen()).toEqual({
      library: false,
      profile: 404,
      listings: 404,
      detail: 404,
      friends: false,
      friendsTotal: 0,
      search: false,
      rooms: false,
    });
    const sitemap = await t.database.query<{ n: number }>(
      `select count(*)::int as n from book_listings where user_id = $1 and hidden_at is null`,
      [bad.id],
    );
    expect(sitemap[0].n).toBe(1);
    const mail = await outboxFor(bad.email);
    expect(mail[0].subject).toMatch(/sospeso|suspended/);
    expect(mail[0].text).toContain('Repeated scams reported by several members.');
    const suspended = (await req('GET', '/api/admin/members/suspended', admin)).json();
    expect(suspended.items.map((m: { id: string }) => m.id)).toContain(bad.id);

    const back = await req('POST', `/api/admin/members/${bad.id}/unsuspend`, admin, {
      reason: 'Appeal accepted.',
    });
    expect(back.statusCode).toBe(200);
    expect(await seen()).toMatchObject({ library: true, profile: 200, friends: true, rooms: true });
    const signIn = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress: randomClientIp(),
      payload: { email: bad.email, password: bad.password },
    });
    expect(signIn.statusCode).toBe(200);
  }, 90_000); // two members signed up and a dozen requests: slow on a busy machine
});

describe('hiding a profile', () => {
  it('suspends its member, and restoring it ends the suspension', async () => {
    const troll = await createMember(t, { displayName: 'Tina Troll' });
    expect(
      (await report(reader, { kind: 'profile', id: troll.id, reason: 'offensive' })).statusCode,
    ).toBe(201);
    const hidden = await req('POST', `/api/admin/items/profile/${troll.id}/hide`, admin, {
      reason: 'Offensive display name.',
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await req('GET', `/api/users/${troll.id}/profile`)).statusCode).toBe(404);
    expect((await req('GET', '/api/connections', troll)).statusCode).toBe(401);
    const log = (await req('GET', '/api/admin/log', admin)).json();
    expect(log.items[0]).toMatchObject({ action: 'suspend', targetUserId: troll.id });
    const queue = (await req('GET', '/api/admin/reports', admin)).json();
    expect(queue.items.map((i: { itemId: string }) => i.itemId)).not.toContain(troll.id);
    const restored = await req('POST', `/api/admin/items/profile/${troll.id}/restore`, admin, {
      reason: 'Name changed.',
    });
    expect(restored.statusCode).toBe(200);
    expect((await req('GET', `/api/users/${troll.id}/profile`)).statusCode).toBe(200);
  });
});
