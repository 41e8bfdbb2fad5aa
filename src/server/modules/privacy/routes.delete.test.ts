import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMember, randomClientIp, signIn } from '../../test/members';
import { countSiteStats } from '../stats';
import { mustOpen, openSocket } from '../../platform/realtime/testing';
import {
  t,
  req,
  zef,
  bea,
  carlo,
  zefName,
  zefUsername,
  avatarFile,
  avatarUrl,
  ids,
  zefMessage,
  useFixture,
} from './routes.fixture';

useFixture();

describe('delete my account', () => {
  it('asks a member with a password for it', async () => {
    const how = await req('GET', '/api/me/delete', zef);
    expect(how.statusCode).toBe(200);
    expect(how.json()).toEqual({ method: 'password', fresh: true });
  });

  it('refuses a missing or wrong password and changes nothing', async () => {
    const missing = await req('POST', '/api/me/delete', zef, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.password).toBeTruthy();
    const wrong = await req('POST', '/api/me/delete', zef, { password: 'not-my-password' }, 'it');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'invalid_password',
      message: 'Password non corretta.',
      fields: { password: 'Password non corretta.' },
    });
    const me = await req('GET', '/api/me', zef);
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(zef.email);
    const listing = await req('GET', `/api/listings/${ids.openListing}`);
    expect(listing.statusCode).toBe(200);
  });

  it('with the password: erases the member, keeps others’ history, refuses sign-in', async () => {
    const second = await signIn(t, zef.email, zef.password);
    const statsBefore = await countSiteStats(t.database);
    const res = await req('POST', '/api/me/delete', zef, { password: zef.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ deleted: true });

    // The home counters no longer count the member. Their open listing was not counted already:
    // zef is on holiday, and the home counts what the library shows (issue 33).
    const statsAfter = await countSiteStats(t.database);
    expect(statsAfter.activeUsers).toBe(statsBefore.activeUsers - 1);
    expect(statsAfter.booksAvailable).toBe(statsBefore.booksAvailable);
    expect(
      await t.database.query('select 1 from book_listings where id = $1', [ids.openListing]),
    ).toEqual([]);

    // Every session ended.
    expect((await req('GET', '/api/me', zef)).statusCode).toBe(401);
    expect((await req('GET', '/api/me', { ...zef, cookie: second })).statusCode).toBe(401);
    const [{ n: sessions }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from sessions where user_id = $1',
      [zef.id],
    );
    expect(sessions).toBe(0);

    // Sign-in fails like an unknown account, by e-mail and by username.
    const byEmail = await t.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { identifier: zef.email, password: zef.password },
    });
    const unknown = await t.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { identifier: 'nobody-at-all@example.com', password: zef.password },
    });
    expect(byEmail.statusCode).toBe(unknown.statusCode);
    expect(byEmail.json()).toEqual(unknown.json());
    const byUsername = await t.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      headers: { 'accept-language': 'en' },
      payload: { identifier: zefUsername, password: zef.password },
    });
    expect(byUsername.statusCode).toBe(unknown.statusCode);
    expect(byUsername.json()).toEqual(unknown.json());

    // The profile and what the member made for others are gone.
    expect((await req('GET', `/api/users/${zef.id}/profile`)).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${ids.openListing}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${ids.soldListing}`)).statusCode).toBe(404);
    const counts = await t.database.query<{ what: string; n: number }>(
      `select 'posts' as what, count(*)::int as n from community_posts where user_id = $1
       union all select 'comments', count(*)::int from post_comments where user_id = $1
       union all select 'reactions', count(*)::int from post_reactions where user_id = $1
       union all select 'wishlist', count(*)::int from wishlist_items where user_id = $1
       union all select 'watches', count(*)::int from listing_watches where user_id = $1
         or listing_id in (select id from book_listings where user_id = $1)
       union all select 'holiday', count(*)::int from member_holidays where user_id = $1
       union all select 'saved searches', count(*)::int from saved_searches where user_id = $1
       union all select 'saved-search finds', count(*)::int from saved_search_matches
         where user_id = $1 or listing_id in (select id from book_listings where user_id = $1)
       union all select 'friends', count(*)::int from connections
         where requester_id = $1 or addressee_id = $1
       union all select 'blocks', count(*)::int from blocks
         where blocker_id = $1 or blocked_id = $1
       union all select 'reviews', count(*)::int from reviews where author_id = $1 or subject_id = $1
       union all select 'ads', count(*)::int from book_advertisements where author_id = $1
       union all select 'notifications', count(*)::int from notifications
         where recipient_id = $1 or actor_id = $1
       union all select 'accounts', count(*)::int from accounts where user_id = $1
       union all select 'open listings', count(*)::int from book_listings
         where user_id = $1 and hidden_at is null`,
      [zef.id],
    );
    for (const row of counts) expect(row, row.what).toMatchObject({ n: 0 });
    expect(existsSync(join(t.config.dataDir, 'uploads', 'avatars', avatarFile))).toBe(false);
    const carloFriends = await req('GET', '/api/connections/friends', carlo);
    if (carloFriends.statusCode === 200)
      expect(JSON.stringify(carloFriends.json())).not.toContain(zef.id);
    // Bea's review of zef and zef's review of bea are gone from bea's profile.
    const beaReviews = (await req('GET', `/api/users/${bea.id}/reviews`)).json();
    expect(beaReviews.total).toBe(0);

    // The conversation stays in bea's list, zef's message signed by a deleted member.
    const rooms = (await req('GET', '/api/chats/rooms', bea)).json();
    const room = rooms.items.find((r: { id: string }) => r.id === ids.roomId);
    expect(room).toBeTruthy();
    expect(room.participants.find((p: { id: string }) => p.id === zef.id)).toMatchObject({
      deleted: true,
      displayName: '',
      username: null,
      avatarUrl: null,
    });
    const messages = (await req('GET', `/api/chats/rooms/${ids.roomId}/messages`, bea)).json();
    const kept = messages.items.find((m: { content: string }) => m.content === zefMessage);
    expect(kept.sender).toMatchObject({ id: zef.id, deleted: true, displayName: '' });
    // Nobody writes to a deleted member.
    const write = await req('POST', `/api/chats/rooms/${ids.roomId}/messages`, bea, {
      content: 'Ci sei?',
    });
    expect(write.statusCode).toBe(403);

    // Nobody reviews a deleted member.
    const review = await req('POST', '/api/reviews', bea, {
      transactionId: ids.transactionId,
      rating: 1,
      text: 'Di nuovo',
    });
    expect(review.statusCode).toBe(409);
    expect(review.json().error.message).toBe(
      'This member deleted their account and can no longer be reviewed.',
    );

    // The transaction stays in bea's history, the other party a deleted member.
    const trades = (await req('GET', '/api/reviews/trades', bea)).json();
    expect(trades.items).toEqual([
      expect.objectContaining({
        transactionId: ids.transactionId,
        listingTitle: 'Le città invisibili',
        other: { id: zef.id, displayName: '', username: null, deleted: true },
      }),
    ]);
  });

  /** Every text, citext, json(b) and array column of every table holding one of `needles`. */
  async function tablesHolding(needles: string[]) {
    const columns = await t.database.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c
       join information_schema.tables tb
         on tb.table_schema = c.table_schema and tb.table_name = c.table_name
       where c.table_schema = 'public' and tb.table_type = 'BASE TABLE'
         and (c.data_type in ('text', 'character varying', 'jsonb', 'json', 'ARRAY')
           or c.udt_name = 'citext')
       order by 1, 2`,
    );
    expect(columns.length).toBeGreaterThan(50);
    const found: string[] = [];
    for (const { table_name: table, column_name: column } of columns) {
      const [row] = await t.database.query<{ n: number }>(
        `select count(*)::int as n from "${table}" x, unnest($1::text[]) as needle(s)
         where strpos(lower(x."${column}"::text), lower(needle.s)) > 0`,
        [needles],
      );
      if (row.n > 0) found.push(`${table}.${column}`);
    }
    return found;
  }

  it('leaves no row anywhere holding the e-mail, name, username or avatar', async () => {
    // The scan does find a member who is still there (their row, their sign-up e-mail).
    expect(await tablesHolding([bea.email])).toEqual(
      expect.arrayContaining(['users.email', 'mail_outbox.to']),
    );
    expect(await tablesHolding([zef.email, zefName, zefUsername, avatarUrl, avatarFile])).toEqual(
      [],
    );
  });

  it('lets the same e-mail sign up again as a new member', async () => {
    const again = await createMember(t, { email: zef.email, username: zefUsername });
    expect(again.id).not.toBe(zef.id);
    const me = (await req('GET', '/api/me', again)).json();
    expect(me).toMatchObject({ email: zef.email, username: zefUsername });
    const data = (await req('POST', '/api/me/export', again)).json();
    expect(data.listings).toEqual([]);
    expect(data.messages).toEqual([]);
  });
});

describe('open sockets of a deleted account', () => {
  it('are closed at once (4401) and a new handshake is refused', async () => {
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const origin = t.config.publicUrl;
    const leaving = await createMember(t, { displayName: 'Lea Leaving' });
    const tab = await mustOpen(base, { cookie: leaving.cookie, origin });
    const res = await req('POST', '/api/me/delete', leaving, { password: leaving.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await tab.closed).toBe(4401);
    const retry = await openSocket(base, { cookie: leaving.cookie, origin });
    expect(retry.opened).toBe(false);
    if (!retry.opened) expect(retry.status).toBe(401);
  });
});

describe('accounts without a password (Google sign-in)', () => {
  async function googleOnly() {
    const m = await createMember(t, { displayName: 'Gina Google' });
    await t.database.query(
      `update accounts set provider_id = 'google', account_id = $2, password = null
       where user_id = $1`,
      [m.id, `g-${m.id}`],
    );
    return m;
  }

  it('asks for a fresh sign-in when the session is older than 10 minutes', async () => {
    const gina = await googleOnly();
    await t.database.query(
      `update sessions set created_at = now() - interval '11 minutes' where user_id = $1`,
      [gina.id],
    );
    expect((await req('GET', '/api/me/delete', gina)).json()).toEqual({
      method: 'freshSignIn',
      fresh: false,
    });
    const res = await req('POST', '/api/me/delete', gina, {}, 'it');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('reauthentication_required');
    expect(res.json().error.message).toMatch(/accedi di nuovo/);
    expect((await req('GET', '/api/me', gina)).statusCode).toBe(200);
  });

  it('deletes after a sign-in of the last 10 minutes', async () => {
    const gina = await googleOnly();
    expect((await req('GET', '/api/me/delete', gina)).json()).toEqual({
      method: 'freshSignIn',
      fresh: true,
    });
    const res = await req('POST', '/api/me/delete', gina, {});
    expect(res.statusCode, res.body).toBe(200);
    expect((await req('GET', '/api/me', gina)).statusCode).toBe(401);
    const [row] = await t.database.query<{ status: string; email: string }>(
      'select account_status as status, email::text as email from users where id = $1',
      [gina.id],
    );
    expect(row.status).toBe('deleted');
    expect(row.email).toMatch(/@deleted\.invalid$/);
  });
});
