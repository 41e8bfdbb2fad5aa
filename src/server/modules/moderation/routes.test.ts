import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createMember, randomClientIp, type Member } from '../../test/members';
import { befriend, createListing, requester } from '../chats/test-support';
import { notificationText } from '../../platform/notifications';
import { mustOpen, openSocket } from '../../platform/realtime/testing';
import { grantAdmin, listAdmins, revokeAdmin, runAdminCommand } from './roles';

let t: TestApp;
let req: ReturnType<typeof requester>;
let admin: Member;
let seller: Member;
let reader: Member;
let other: Member;

beforeAll(async () => {
  t = await createTestApp();
  req = requester(t);
  admin = await createMember(t, { displayName: 'Ada Admin' });
  seller = await createMember(t, { displayName: 'Sandro Seller', username: 'sandro_s' });
  reader = await createMember(t, { displayName: 'Rita Reader' });
  other = await createMember(t, { displayName: 'Otto Other' });
  expect((await grantAdmin(t.database, admin.email)).ok).toBe(true);
}, 120_000);

const reason = { reason: 'Violates the rules on spam (section 3).' };

async function report(who: Member | undefined, body: object, lang = 'en') {
  return req('POST', '/api/reports', who, body, lang);
}

async function outboxFor(email: string) {
  const rows = await t.database.query<{ subject: string; text: string }>(
    'select subject, text from mail_outbox where "to" = $1 order by id desc',
    [email],
  );
  return rows;
}

async function directRoom(a: Member, b: Member, content: string) {
  await befriend(t, a, b);
  const room = await req('POST', '/api/chats/direct', a, { userId: b.id });
  expect(room.statusCode, room.body).toBeLessThan(300);
  const roomId = room.json().room.id as string;
  const sent = await req('POST', `/api/chats/rooms/${roomId}/messages`, a, { content });
  expect(sent.statusCode, sent.body).toBe(201);
  return { roomId, messageId: sent.json().message.id as string };
}

describe('the admin command', () => {
  it('grants, lists and revokes, and refuses an unknown e-mail', async () => {
    const m = await createMember(t);
    expect(await runAdminCommand(t.database, ['grant', m.email])).toEqual({
      ok: true,
      output: `${m.email} is now an admin.`,
    });
    expect((await grantAdmin(t.database, m.email)).ok).toBe(false);
    expect((await listAdmins(t.database)).map((a) => a.email)).toContain(m.email);
    const listed = await runAdminCommand(t.database, ['list']);
    expect(listed.output).toContain(m.email);
    expect((await revokeAdmin(t.database, m.email)).ok).toBe(true);
    expect((await listAdmins(t.database)).map((a) => a.email)).not.toContain(m.email);
    const unknown = await runAdminCommand(t.database, ['grant', 'nobody@example.com']);
    expect(unknown).toEqual({ ok: false, output: 'No member with the e-mail nobody@example.com.' });
    expect((await runAdminCommand(t.database, ['promote'])).output).toMatch(/^Usage/);
    const log = await t.database.query<{ action: string }>(
      'select action from moderation_log where target_user_id = $1 order by id',
      [m.id],
    );
    expect(log.map((l) => l.action)).toEqual(['grant_admin', 'revoke_admin']);
  });
});

describe('every admin route', () => {
  const routes: [string, string, object?][] = [
    ['GET', '/api/admin/reports'],
    ['GET', '/api/admin/log'],
    ['GET', '/api/admin/members/suspended'],
    ['POST', '/api/admin/items/listing/00000000-0000-4000-8000-000000000000/dismiss', reason],
    ['POST', '/api/admin/items/listing/00000000-0000-4000-8000-000000000000/hide', reason],
    ['POST', '/api/admin/items/listing/00000000-0000-4000-8000-000000000000/restore', reason],
    ['POST', '/api/admin/members/someone/suspend', reason],
    ['POST', '/api/admin/members/someone/unsuspend', reason],
    ['GET', '/api/admin/me'],
    ['POST', '/api/admin/items/ad/00000000-0000-4000-8000-000000000000/reject', reason],
    ['PUT', '/api/admin/posts/00000000-0000-4000-8000-000000000000/pin', {}],
    ['DELETE', '/api/admin/posts/00000000-0000-4000-8000-000000000000/pin'],
  ];
  it.each(routes)(
    '%s %s: 401 for visitors, 404 for members, even with bad input',
    async (m, url, body) => {
      // PUT too (pinning); the helper's type lists the methods the chats use.
      const method = m as 'GET' | 'POST';
      const visitor = await req(method, url, undefined, body);
      expect(visitor.statusCode).toBe(401);
      expect(visitor.json().error.message).toBe('Unauthorized. Please login.');
      const member = await req(method, url, reader, body);
      expect(member.statusCode).toBe(404);
      if (method === 'POST') expect((await req(method, url, reader, {})).statusCode).toBe(404);
    },
  );

  it('answers an admin', async () => {
    const queue = await req('GET', '/api/admin/reports', admin);
    expect(queue.statusCode, queue.body).toBe(200);
    expect(queue.json()).toMatchObject({ page: 1, pageSize: 20 });
    expect((await req('GET', '/api/admin/log', admin)).statusCode).toBe(200);
    expect((await req('GET', '/api/admin/members/suspended', admin)).statusCode).toBe(200);
    const noReason = await req('POST', `/api/admin/members/${reader.id}/suspend`, admin, {});
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields.reason).toBeTruthy();
  });
});

describe('reporting', () => {
  let listingId: string;
  beforeAll(async () => {
    listingId = (await createListing(t, seller, { title: 'Report me please' })).id;
  });

  it('takes one open report per member and item, with a clear 409 for a second', async () => {
    const first = await report(reader, { kind: 'listing', id: listingId, reason: 'spam' });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ status: 'open' });
    const again = await report(reader, {
      kind: 'listing',
      id: listingId,
      reason: 'scam',
      text: 'still here',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(
      'You have already reported this; the moderators have not decided yet.',
    );
    const italian = await report(reader, { kind: 'listing', id: listingId, reason: 'scam' }, 'it');
    expect(italian.json().error.message).toMatch(/Hai già segnalato/);
    const second = await report(other, {
      kind: 'listing',
      id: listingId,
      reason: 'scam',
      text: 'Asks for payment outside the site',
    });
    expect(second.statusCode).toBe(201);
    const rows = await t.database.query('select 1 from reports where item_id = $1', [listingId]);
    expect(rows).toHaveLength(2);
  });

  it('lets visitors report illegal content only, with a valid name and e-mail', async () => {
    const spam = await report(undefined, {
      kind: 'listing',
      id: listingId,
      reason: 'spam',
      name: 'Vera',
      email: 'vera@example.com',
    });
    expect(spam.statusCode).toBe(401);
    expect(spam.json().error.message).toMatch(/illegal content only/);
    const missing = await report(undefined, { kind: 'listing', id: listingId, reason: 'illegal' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().error.fields).sort()).toEqual(['email', 'name']);
    const badEmail = await report(undefined, {
      kind: 'listing',
      id: listingId,
      reason: 'illegal',
      name: 'Vera',
      email: 'not-an-email',
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.fields.email).toBeTruthy();
    const ok = await report(undefined, {
      kind: 'listing',
      id: listingId,
      reason: 'illegal',
      name: 'Vera Visitor',
      email: 'vera@example.com',
      text: 'A pirated copy',
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const twice = await report(undefined, {
      kind: 'listing',
      id: listingId,
      reason: 'illegal',
      name: 'Vera Visitor',
      email: 'VERA@example.com',
    });
    expect(twice.statusCode).toBe(409);
  });

  it('is a 404 for items that do not exist or that the reporter cannot see', async () => {
    const none = await report(reader, {
      kind: 'listing',
      id: '00000000-0000-4000-8000-000000000000',
      reason: 'spam',
    });
    expect(none.statusCode).toBe(404);
    expect((await report(reader, { kind: 'listing', id: 'nope', reason: 'spam' })).statusCode).toBe(
      404,
    );
    // A message of a conversation the reporter is not in.
    const { messageId } = await directRoom(seller, other, 'Pay me by wire transfer, cheaper');
    const outsider = await report(reader, { kind: 'message', id: messageId, reason: 'scam' });
    expect(outsider.statusCode).toBe(404);
    const insider = await report(other, { kind: 'message', id: messageId, reason: 'scam' });
    expect(insider.statusCode, insider.body).toBe(201);
    const unknownKind = await report(reader, { kind: 'poster', id: listingId, reason: 'spam' });
    expect(unknownKind.statusCode).toBe(400);
    const badReason = await report(reader, { kind: 'listing', id: listingId, reason: 'boring' });
    expect(badReason.statusCode).toBe(400);
    expect(badReason.json().error.fields.reason).toBe('Choose a reason');
    const own = await report(seller, { kind: 'listing', id: listingId, reason: 'spam' });
    expect(own.statusCode).toBe(400);
    const profile = await report(reader, { kind: 'profile', id: seller.id, reason: 'offensive' });
    expect(profile.statusCode).toBe(201);
  });
});

describe('the queue and its actions', () => {
  it('groups open reports by item, shows the item, hides it with a statement of reasons', async () => {
    const listing = await createListing(t, seller, { title: 'Il codice pirata' });
    await report(reader, { kind: 'listing', id: listing.id, reason: 'illegal', text: 'Pirated' });
    await report(other, { kind: 'listing', id: listing.id, reason: 'scam' });
    const queue = (await req('GET', '/api/admin/reports', admin)).json();
    const entry = queue.items.find((i: { itemId: string }) => i.itemId === listing.id);
    expect(entry).toMatchObject({
      kind: 'listing',
      count: 2,
      reasons: ['illegal', 'scam'],
      item: {
        title: 'Il codice pirata — Italo Calvino',
        authorId: seller.id,
        authorName: 'Sandro Seller',
        link: `/library/book/${listing.id}`,
        hidden: false,
      },
    });
    expect(entry.reports.map((r: { reporter: string }) => r.reporter)).toEqual([
      'Otto Other',
      'Rita Reader',
    ]);

    // A member cannot act: 404, and nothing changes.
    const byMember = await req(
      'POST',
      `/api/admin/items/listing/${listing.id}/hide`,
      reader,
      reason,
    );
    expect(byMember.statusCode).toBe(404);
    expect((await req('GET', `/api/listings/${listing.id}`)).statusCode).toBe(200);

    const library = async () =>
      (await req('GET', '/api/listings?q=codice%20pirata')).json() as {
        items: { id: string }[];
        total: number;
      };
    expect((await library()).items.map((i) => i.id)).toContain(listing.id);
    const totalBefore = (await req('GET', '/api/listings?status=available')).json().total;

    const hidden = await req('POST', `/api/admin/items/listing/${listing.id}/hide`, admin, {
      reason: 'Pirated copies are illegal to sell.',
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await req('GET', `/api/listings/${listing.id}`)).statusCode).toBe(404);
    expect((await library()).items.map((i) => i.id)).not.toContain(listing.id);
    const counts = await t.database.query<{ n: number }>(
      `select coalesce(sum(n), 0)::int as n from listing_counts
       where status = 'available' and price_floor = -2`,
    );
    const recount = await t.database.query<{ n: number }>(
      `select count(*)::int as n from book_listings l join users u on u.id = l.user_id
       where l.status = 'available' and l.hidden_at is null and u.account_status = 'active'`,
    );
    expect(counts[0].n).toBe(recount[0].n);
    expect(counts[0].n).toBeLessThan(totalBefore);
    const reports = await report(reader, { kind: 'listing', id: listing.id, reason: 'spam' });
    expect(reports.statusCode).toBe(404);
    // Its owner may still change it (it stays hidden); changing its status does not unhide it.
    const owned = await req('POST', `/api/listings/${listing.id}/status`, seller, {
      status: 'unavailable',
    });
    expect(owned.statusCode, owned.body).toBe(200);
    await req('POST', `/api/listings/${listing.id}/status`, seller, { status: 'available' });
    expect((await req('GET', `/api/listings/${listing.id}`)).statusCode).toBe(404);

    const after = (await req('GET', '/api/admin/reports', admin)).json();
    expect(after.items.map((i: { itemId: string }) => i.itemId)).not.toContain(listing.id);
    const mail = await outboxFor(seller.email);
    expect(mail[0].subject).toMatch(/annuncio è stato rimosso|listing was removed/);
    expect(mail[0].text).toContain('Pirated copies are illegal to sell.');
    expect(mail[0].text).toContain('Il codice pirata');

    // And under the bell, in the member's list of notifications.
    const bell = (await req('GET', '/api/notifications', seller)).json();
    const note = bell.items.find((n: { type: string }) => n.type === 'moderation.action');
    expect(note).toMatchObject({
      actor: null,
      subject: { type: 'listing', id: listing.id },
      link: `/profile/${seller.id}/dashboard`,
    });
    expect(notificationText('en', { ...note, actorName: null })).toBe(
      'The moderators removed “Il codice pirata — Italo Calvino”: the e-mail we sent you gives the reasons',
    );

    const log = (await req('GET', '/api/admin/log', admin)).json();
    expect(log.items[0]).toMatchObject({
      actor: 'Ada Admin',
      action: 'hide',
      kind: 'listing',
      itemId: listing.id,
      targetUserId: seller.id,
      reason: 'Pirated copies are illegal to sell.',
    });

    const restored = await req('POST', `/api/admin/items/listing/${listing.id}/restore`, admin, {
      reason: 'The seller showed it is an original.',
    });
    expect(restored.statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${listing.id}`)).statusCode).toBe(200);
    expect((await library()).items.map((i) => i.id)).toContain(listing.id);
  });

  it('dismisses reports without touching the item', async () => {
    const listing = await createListing(t, seller, { title: 'Nothing wrong here' });
    await report(reader, { kind: 'listing', id: listing.id, reason: 'other' });
    const res = await req('POST', `/api/admin/items/listing/${listing.id}/dismiss`, admin, {
      reason: 'Nothing against the rules.',
    });
    expect(res.statusCode).toBe(200);
    expect((await req('GET', `/api/listings/${listing.id}`)).statusCode).toBe(200);
    const again = await req(
      'POST',
      `/api/admin/items/listing/${listing.id}/dismiss`,
      admin,
      reason,
    );
    expect(again.statusCode).toBe(404);
    // Dismissed, the member may report it again.
    const anew = await report(reader, { kind: 'listing', id: listing.id, reason: 'spam' });
    expect(anew.statusCode).toBe(201);
  });

  it('hides a chat message for everyone as a removed message', async () => {
    const { roomId, messageId } = await directRoom(other, reader, 'You are an idiot');
    await report(reader, { kind: 'message', id: messageId, reason: 'offensive' });
    const res = await req('POST', `/api/admin/items/message/${messageId}/hide`, admin, {
      reason: 'Insults are not allowed.',
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const who of [reader, other]) {
      const page = (await req('GET', `/api/chats/rooms/${roomId}/messages`, who)).json();
      const msg = page.items.find((m: { id: string }) => m.id === messageId);
      expect(msg).toMatchObject({ deleted: true, content: '' });
    }
    const [kept] = await t.database.query<{ content: string }>(
      'select content from chat_messages where id = $1',
      [messageId],
    );
    expect(kept.content).toBe('You are an idiot');
  });
});

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
