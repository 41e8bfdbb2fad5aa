import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, randomClientIp, signIn, type Member } from '../../test/members';
import { befriend, createListing, requester } from '../chats/test-support';
import { adsClient } from '../ads/test-support';
import { countSiteStats } from '../stats/routes';
import { mustOpen, openSocket } from '../../platform/realtime/testing';

let t: TestApp;
let req: ReturnType<typeof requester>;
let zef: Member; // the member who exports and then deletes their account
let bea: Member; // buyer: a transaction, a conversation and reviews with zef
let carlo: Member; // a friend of zef
let dario: Member; // blocked by zef
let elena: Member; // blocks zef (zef must not learn it from the export)
const zefName = 'Zefirino Cancellato';
const zefUsername = `zefi_${randomBytes(3).toString('hex')}`;
const avatarFile = `${randomBytes(16).toString('hex')}.webp`;
const avatarUrl = `/uploads/avatars/${avatarFile}`;

const ids = {
  soldListing: '',
  openListing: '',
  roomId: '',
  transactionId: '',
  postOfBea: '',
  postOfZef: '',
  adId: '',
};
const zefMessage = 'Grazie Bea, spedisco domani con il corriere.';
const beaMessage = 'Perfetto, il mio indirizzo è in via Segreta 7.';

/** A sale completed through the chat's offer flow: contact, offer, accept, complete. */
async function completeSale(seller: Member, buyer: Member) {
  const listing = await createListing(t, seller, { title: 'Le città invisibili', price: 12 });
  const contact = await req('POST', '/api/chats/contact', buyer, {
    listingId: listing.id,
    content: beaMessage,
  });
  expect(contact.statusCode, contact.body).toBe(201);
  const { roomId } = contact.json();
  const offer = await req('POST', `/api/chats/rooms/${roomId}/offers`, buyer, {
    listingId: listing.id,
    amount: 10,
  });
  expect(offer.statusCode, offer.body).toBe(201);
  const offerId = offer.json().message.offer.id;
  expect((await req('POST', `/api/chats/offers/${offerId}/accept`, seller)).statusCode).toBe(200);
  expect((await req('POST', `/api/chats/offers/${offerId}/complete`, seller)).statusCode).toBe(200);
  const [tx] = await t.database.query<{ id: string }>(
    `select id from transactions where listing_id = $1 and status = 'completed'`,
    [listing.id],
  );
  return { listingId: listing.id, roomId: roomId as string, transactionId: tx.id };
}

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  zef = await createMember(t, {
    email: `zefirino-${randomBytes(4).toString('hex')}@example.com`,
    displayName: zefName,
    username: zefUsername,
  });
  bea = await createMember(t, { displayName: 'Beatrice Buyer' });
  carlo = await createMember(t, { displayName: 'Carlo Friend' });
  dario = await createMember(t, { displayName: 'Dario Blocked' });
  elena = await createMember(t, { displayName: 'Elena Blocker' });
  expect((await req('PUT', `/api/blocks/${dario.id}`, zef)).statusCode).toBeLessThan(300);
  expect((await req('PUT', `/api/blocks/${zef.id}`, elena)).statusCode).toBeLessThan(300);

  // Profile: an avatar file on disk, a bio and a city.
  const dir = join(t.config.dataDir, 'uploads', 'avatars');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, avatarFile), Buffer.from('RIFF0000WEBP'));
  await t.database.query(
    `update users set avatar_url = $2, bio = 'Lettore di Calvino', location_city = 'Pavia'
     where id = $1`,
    [zef.id, avatarUrl],
  );
  await t.database.query('insert into uploads (url, owner_id) values ($1, $2)', [
    avatarUrl,
    zef.id,
  ]);

  const sale = await completeSale(zef, bea);
  ids.soldListing = sale.listingId;
  ids.roomId = sale.roomId;
  ids.transactionId = sale.transactionId;
  const sent = await req('POST', `/api/chats/rooms/${ids.roomId}/messages`, zef, {
    content: zefMessage,
  });
  expect(sent.statusCode, sent.body).toBe(201);
  ids.openListing = (await createListing(t, zef, { title: 'Il visconte dimezzato' })).id;

  for (const [author, other] of [
    [bea, zef],
    [zef, bea],
  ] as const) {
    const review = await req('POST', '/api/reviews', author, {
      transactionId: ids.transactionId,
      rating: 5,
      text: `Recensione di ${author === zef ? 'zef' : 'bea'} per ${other === zef ? 'zef' : 'bea'}`,
    });
    expect(review.statusCode, review.body).toBe(201);
  }

  await befriend(t, zef, carlo);
  const [{ book_id: bookId }] = await t.database.query<{ book_id: string }>(
    'select book_id from book_listings where id = $1',
    [ids.soldListing],
  );
  const [postOfBea] = await t.database.query<{ id: string }>(
    `insert into community_posts (user_id, book_id, content) values ($1, $2, 'Post di Bea')
     returning id`,
    [bea.id, bookId],
  );
  const [postOfZef] = await t.database.query<{ id: string }>(
    `insert into community_posts (user_id, book_id, content) values ($1, $2, 'Post di Zef')
     returning id`,
    [zef.id, bookId],
  );
  ids.postOfBea = postOfBea.id;
  ids.postOfZef = postOfZef.id;
  await t.database.query(
    `insert into post_comments (post_id, user_id, content) values ($1, $2, 'Commento di Zef')`,
    [ids.postOfBea, zef.id],
  );
  await t.database.query(
    `insert into post_comments (post_id, user_id, content) values ($1, $2, 'Commento di Bea')`,
    [ids.postOfZef, bea.id],
  );
  await t.database.query(`insert into post_reactions (post_id, user_id) values ($1, $2)`, [
    ids.postOfBea,
    zef.id,
  ]);
  const wish = await req('POST', '/api/me/wishlist/items', zef, { bookId });
  expect(wish.statusCode, wish.body).toBe(201);
  ids.adId = await adsClient(t).createAd(zef, { title: 'Il mio romanzo' });
  await t.database.query(
    `insert into ad_daily_stats (ad_id, day, impressions, clicks, conversions)
     values ($1, '2026-11-01', 40, 3, 1)`,
    [ids.adId],
  );
  const report = await req('POST', '/api/reports', zef, {
    kind: 'profile',
    id: carlo.id,
    reason: 'spam',
  });
  expect(report.statusCode, report.body).toBeLessThan(300);
}, 180_000);

describe('the API document', () => {
  it('describes both routes with their errors', async () => {
    const doc = (await req('GET', '/api/openapi.json')).json();
    expect(Object.keys(doc.paths['/api/me/export']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/me/export'].get.responses)).toEqual(['405']);
    expect(Object.keys(doc.paths['/api/me/delete']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/api/me/delete'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '429']),
    );
  });
});

describe('anonymous visitors', () => {
  it('get 401 from both routes', async () => {
    expect((await req('POST', '/api/me/export')).statusCode).toBe(401);
    expect((await req('GET', '/api/me/delete')).statusCode).toBe(401);
    const del = await req('POST', '/api/me/delete', undefined, { password: 'x' });
    expect(del.statusCode).toBe(401);
    expect(del.json().error.code).toBe('unauthorized');
  });
});

describe('download my data', () => {
  it('answers an attachment with every section of the member’s own data', async () => {
    const res = await req('POST', '/api/me/export', zef);
    expect(res.statusCode, res.body).toBe(200);
    const day = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="scaffale-${zefUsername}-${day}.json"`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    const data = res.json();
    expect(data.profile).toMatchObject({
      id: zef.id,
      email: zef.email,
      displayName: zefName,
      username: zefUsername,
      avatarUrl,
      bio: 'Lettore di Calvino',
      locationCity: 'Pavia',
    });
    expect(data.account.settings).toHaveProperty('preferredLanguage');
    expect(data.account.signInMethods).toEqual([
      expect.objectContaining({ provider: 'credential' }),
    ]);
    expect(data.account.sessions.length).toBeGreaterThan(0);
    expect(data.listings.map((l: { id: string }) => l.id).sort()).toEqual(
      [ids.soldListing, ids.openListing].sort(),
    );
    const beaPublic = (await req('GET', '/api/me', bea)).json().username;
    expect(data.transactions).toEqual([
      expect.objectContaining({
        id: ids.transactionId,
        role: 'seller',
        listingTitle: 'Le città invisibili',
        otherParty: beaPublic,
      }),
    ]);
    expect(data.messages.map((m: { content: string }) => m.content)).toContain(zefMessage);
    expect(data.messages.every((m: { conversationId: string }) => m.conversationId)).toBe(true);
    expect(data.connections).toEqual([expect.objectContaining({ status: 'accepted' })]);
    const darioPublic = (await req('GET', '/api/me', dario)).json().username;
    expect(data.blocks).toEqual([expect.objectContaining({ member: darioPublic })]);
    expect(data.posts.map((p: { id: string }) => p.id)).toEqual([ids.postOfZef]);
    expect(data.comments.map((c: { content: string }) => c.content)).toEqual(['Commento di Zef']);
    expect(data.reactions).toEqual([
      expect.objectContaining({ target: 'post', id: ids.postOfBea }),
    ]);
    expect(data.wishlists[0].items).toHaveLength(1);
    expect(data.reviews.written).toHaveLength(1);
    expect(data.reviews.received).toEqual([
      expect.objectContaining({ by: beaPublic, text: 'Recensione di bea per zef' }),
    ]);
    expect(data.advertisements).toEqual([
      expect.objectContaining({
        id: ids.adId,
        title: 'Il mio romanzo',
        dailyStats: [{ day: '2026-11-01', impressions: 40, clicks: 3, conversions: 1 }],
      }),
    ]);
    expect(data.notifications.length).toBeGreaterThan(0);
    expect(data.reportsFiled).toEqual([
      expect.objectContaining({ kind: 'profile', itemId: carlo.id }),
    ]);
  });

  it('holds nothing private of another member', async () => {
    const res = await req('POST', '/api/me/export', zef);
    const text = res.body;
    for (const secret of [bea.email, carlo.email, beaMessage, 'Commento di Bea', 'Post di Bea'])
      expect(text).not.toContain(secret);
    // Nor credentials of the member themselves.
    const [session] = await t.database.query<{ token: string }>(
      'select token from sessions where user_id = $1 limit 1',
      [zef.id],
    );
    const [hash] = await t.database.query<{ password: string }>(
      `select password from accounts where user_id = $1`,
      [zef.id],
    );
    expect(text).not.toContain(session.token);
    expect(text).not.toContain(hash.password);
  });

  it('gives another member only their own archive', async () => {
    const data = (await req('POST', '/api/me/export', bea)).json();
    expect(data.profile.email).toBe(bea.email);
    expect(JSON.stringify(data)).not.toContain(zef.email);
    const texts = data.messages.filter((m: { type: string }) => m.type === 'text');
    expect(texts.map((m: { content: string }) => m.content)).toEqual([beaMessage]);
  });
});

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

    // The home counters no longer count the member nor their open listing.
    const statsAfter = await countSiteStats(t.database);
    expect(statsAfter.activeUsers).toBe(statsBefore.activeUsers - 1);
    expect(statsAfter.booksAvailable).toBe(statsBefore.booksAvailable - 1);

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
      payload: { identifier: zefUsername, password: zef.password },
    });
    expect(byUsername.statusCode).toBe(400);
    expect(byUsername.json().error.code).toBe('user_not_found');

    // The profile and what the member made for others are gone.
    expect((await req('GET', `/api/users/${zef.id}/profile`)).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${ids.openListing}`)).statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${ids.soldListing}`)).statusCode).toBe(404);
    const counts = await t.database.query<{ what: string; n: number }>(
      `select 'posts' as what, count(*)::int as n from community_posts where user_id = $1
       union all select 'comments', count(*)::int from post_comments where user_id = $1
       union all select 'reactions', count(*)::int from post_reactions where user_id = $1
       union all select 'wishlist', count(*)::int from wishlist_items where user_id = $1
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
