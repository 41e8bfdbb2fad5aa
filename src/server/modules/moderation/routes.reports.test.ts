import { beforeAll, describe, expect, it } from 'vitest';
import { createMember } from '../../test/members';
import { createListing } from '../../test/listings';
import { notificationText } from '../../platform/notifications';
import { grantAdmin, listAdmins, revokeAdmin, runAdminCommand } from './roles';
import {
  t,
  req,
  admin,
  seller,
  reader,
  other,
  reason,
  report,
  outboxFor,
  directRoom,
  useFixture,
} from './routes.fixture';

useFixture();

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
