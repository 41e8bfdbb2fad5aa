import { beforeAll, describe, expect, it } from 'vitest';
import { createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { createBook, createPost } from '../../test/community';
import { adsClient } from '../../test/ads';
import { t, call, block, unblock, befriend, useFixture } from './routes.fixture';

useFixture();

describe('a block keeps two members apart, both ways', () => {
  let ann: Member;
  let bob: Member;
  let cat: Member;
  let annListing: string;
  let bobListing: string;
  let annPost: string;
  let bobPost: string;
  let catPost: string;
  let annComment: string;
  let bobComment: string;
  let roomId: string;
  let groupId: string;

  const uniq = 'Zibaldone';

  beforeAll(async () => {
    ann = await createMember(t, { displayName: 'Annalisa Bloccante' });
    bob = await createMember(t, { displayName: 'Bobby Bloccato', username: 'bobby_b' });
    cat = await createMember(t, { displayName: 'Caterina Terza' });
    await befriend(ann, bob);
    await befriend(ann, cat);
    await befriend(bob, cat);
    annListing = (
      await createListing(t, ann, { title: `${uniq} di Ann`, author: 'Giacomo Leopardi' })
    ).id;
    bobListing = (
      await createListing(t, bob, { title: `${uniq} di Bob`, author: 'Giacomo Leopardi' })
    ).id;
    // Their direct conversation (Bob asked about Ann's book) and a group of the three.
    const contact = await call(bob, 'POST', '/api/chats/contact', {
      listingId: annListing,
      content: 'Ciao, è ancora disponibile?',
    });
    expect(contact.statusCode, contact.body).toBe(201);
    roomId = contact.json().roomId;
    const group = await call(ann, 'POST', '/api/chats/rooms', {
      name: 'Lettori',
      participantIds: [bob.id, cat.id],
    });
    expect(group.statusCode, group.body).toBe(201);
    groupId = group.json().room.id;

    const book = await createBook(t, 'Canti', 'Giacomo Leopardi');
    annPost = (await createPost(t, ann, book, `${uniq} secondo Ann`)).id;
    bobPost = (await createPost(t, bob, book, `${uniq} secondo Bob`)).id;
    catPost = (await createPost(t, cat, book, `${uniq} secondo Cat`)).id;
    const c1 = await call(ann, 'POST', `/api/community/posts/${catPost}/comments`, {
      content: 'Commento di Ann',
    });
    expect(c1.statusCode, c1.body).toBe(201);
    annComment = c1.json().id;
    const c2 = await call(bob, 'POST', `/api/community/posts/${catPost}/comments`, {
      content: 'Commento di Bob',
    });
    bobComment = c2.json().id;

    // An open offer each way in their conversation.
    for (const [buyer, listingId] of [
      [bob, annListing],
      [ann, bobListing],
    ] as const) {
      const offer = await call(buyer, 'POST', `/api/chats/rooms/${roomId}/offers`, {
        listingId,
        amount: 7,
      });
      expect(offer.statusCode, offer.body).toBe(201);
    }

    // A pending request the other way round would also end; here they are friends.
    const blocked = await block(ann, bob);
    expect(blocked.statusCode, blocked.body).toBe(200);
  }, 60_000);

  const pairs = () =>
    [
      ['the blocker', ann, bob],
      ['the blocked member', bob, ann],
    ] as const;
  const listingOf = (m: Member) => (m === ann ? annListing : bobListing);
  const postOf = (m: Member) => (m === ann ? annPost : bobPost);
  const commentOf = (m: Member) => (m === ann ? annComment : bobComment);

  it('ends their friendship at once', async () => {
    const rows = await t.database.query(
      `select 1 from connections where (requester_id = $1 and addressee_id = $2)
         or (requester_id = $2 and addressee_id = $1)`,
      [ann.id, bob.id],
    );
    expect(rows).toHaveLength(0);
    const friends = (await call(bob, 'GET', '/api/connections')).json();
    expect(friends.items.map((f: { member: { id: string } }) => f.member.id)).toEqual([cat.id]);
  });

  it('ends a pending friend request between them too', async () => {
    const x = await createMember(t);
    const y = await createMember(t);
    const sent = await call(x, 'POST', '/api/connections', { userId: y.id });
    expect(sent.statusCode).toBe(201);
    expect((await block(y, x)).statusCode).toBe(200);
    const incoming = (await call(y, 'GET', '/api/connections/requests')).json();
    expect(incoming.incoming.total).toBe(0);
    const [n] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from notifications where recipient_id = $1 and type = 'friend.request'`,
      [y.id],
    );
    expect(n.n).toBe(0);
  });

  it('refuses direct messages either way, with a neutral message in the member language', async () => {
    for (const [who, me] of pairs()) {
      const en = await call(me, 'POST', `/api/chats/rooms/${roomId}/messages`, { content: 'Ehi' });
      expect(en.statusCode, who).toBe(403);
      expect(en.json().error.message).toBe("You can't send messages in this conversation.");
      const it_ = await call(
        me,
        'POST',
        `/api/chats/rooms/${roomId}/messages`,
        { content: 'Ehi' },
        'it',
      );
      expect(it_.json().error.message).toBe('Non puoi inviare messaggi in questa conversazione.');
      expect(it_.body).not.toMatch(/block|blocc/i);
    }
    const [n] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from chat_messages where room_id = $1 and content = 'Ehi'`,
      [roomId],
    );
    expect(n.n).toBe(0);
    // The conversation and its history stay readable.
    expect((await call(bob, 'GET', `/api/chats/rooms/${roomId}/messages`)).statusCode).toBe(200);
  });

  it('refuses a new or reopened direct conversation and contacting the seller, either way', async () => {
    for (const [who, me, other] of pairs()) {
      const direct = await call(me, 'POST', '/api/chats/direct', { userId: other.id });
      expect(direct.statusCode, who).toBe(403);
      expect(direct.json().error.message).toBe("You can't send messages in this conversation.");
      const contact = await call(me, 'POST', '/api/chats/contact', {
        listingId: listingOf(other),
        content: 'Ciao',
      });
      expect(contact.statusCode, who).toBe(404);
    }
  });

  it('leaves group conversations alone', async () => {
    for (const [, me] of pairs()) {
      const res = await call(me, 'POST', `/api/chats/rooms/${groupId}/messages`, {
        content: 'Nel gruppo',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });

  const offers = () =>
    t.database.query<{ buyer_id: string; status: string }>(
      `select buyer_id, status from offers where room_id = $1 order by buyer_id = $2`,
      [roomId, ann.id],
    );

  it('closes their open offers: the blocker’s withdrawn, the other’s declined', async () => {
    expect(await offers()).toEqual([
      { buyer_id: bob.id, status: 'declined' },
      { buyer_id: ann.id, status: 'withdrawn' },
    ]);
  });

  it('refuses offers on each other’s listings', async () => {
    for (const [who, me, other] of pairs()) {
      const res = await call(me, 'POST', `/api/chats/rooms/${roomId}/offers`, {
        listingId: listingOf(other),
        amount: 10,
      });
      expect(res.statusCode, who).toBe(404);
    }
    expect((await offers()).map((o) => o.status)).toEqual(['declined', 'withdrawn']);
  });

  it('refuses friend requests either way, neutrally', async () => {
    for (const [who, me, other] of pairs()) {
      const res = await call(me, 'POST', '/api/connections', { userId: other.id }, 'it');
      expect(res.statusCode, who).toBe(403);
      expect(res.json().error.message).toBe(
        'Non puoi inviare una richiesta di amicizia a questo membro.',
      );
    }
  });

  it('hides each from the other in member search, and no one else', async () => {
    for (const [who, me, other] of pairs()) {
      const q = other === ann ? 'Annalisa' : 'Bobby';
      const res = await call(me, 'GET', `/api/connections/search?q=${q}`);
      expect(res.statusCode).toBe(200);
      const ids = res.json().items.map((i: { member: { id: string } }) => i.member.id);
      expect(ids, who).not.toContain(other.id);
      const byCat = await call(cat, 'GET', `/api/connections/search?q=${q}`);
      expect(byCat.json().items.map((i: { member: { id: string } }) => i.member.id)).toContain(
        other.id,
      );
    }
  });

  it('hides their listings from each other: library, shelves, profile, detail', async () => {
    for (const [who, me, other] of pairs()) {
      const search = await call(me, 'GET', `/api/listings?q=${uniq}`);
      expect(search.statusCode).toBe(200);
      expect(search.headers['cache-control'], who).toBe('private, no-cache');
      const ids = search.json().items.map((i: { id: string }) => i.id);
      expect(ids, who).toEqual([listingOf(me)]);
      expect(search.json().total, who).toBe(1);
      // The broad library (counted totals) as well.
      const all = (await call(me, 'GET', '/api/listings?pageSize=48')).json();
      expect(
        all.items.map((i: { id: string }) => i.id),
        who,
      ).not.toContain(listingOf(other));
      const shelves = (await call(me, 'GET', '/api/shelves')).json();
      const shelved = shelves.shelves.flatMap((s: { items: { id: string }[] }) =>
        s.items.map((i) => i.id),
      );
      expect(shelved, who).toContain(listingOf(me));
      expect(shelved, who).not.toContain(listingOf(other));
      const profile = (await call(me, 'GET', `/api/users/${other.id}/profile`)).json();
      expect(profile.recentBooks, who).toEqual([]);
      const listings = (await call(me, 'GET', `/api/users/${other.id}/listings`)).json();
      expect(listings, who).toMatchObject({ items: [], total: 0 });
      const detail = await call(me, 'GET', `/api/listings/${listingOf(other)}`);
      expect(detail.statusCode, who).toBe(404);
    }
    // Everyone else still sees both, and visitors' answers stay publicly cacheable.
    const visitor = await call(null, 'GET', `/api/listings?q=${uniq}`);
    expect(visitor.json().total).toBe(2);
    expect(visitor.headers['cache-control']).toMatch(/^public/);
    expect((await call(cat, 'GET', `/api/listings?q=${uniq}`)).json().total).toBe(2);
    expect((await call(cat, 'GET', `/api/listings/${annListing}`)).statusCode).toBe(200);
  });

  it('hides their posts from each other: feed, search, profile, detail', async () => {
    for (const [who, me, other] of pairs()) {
      const popular = (await call(me, 'GET', '/api/community/posts/popular')).json();
      const ids = popular.items.map((p: { id: string }) => p.id);
      expect(ids, who).toContain(postOf(me));
      expect(ids, who).not.toContain(postOf(other));
      const search = (await call(me, 'GET', `/api/community/posts/search?q=${uniq}`)).json();
      expect(search.items.map((p: { id: string }) => p.id).sort(), who).toEqual(
        [postOf(me), catPost].sort(),
      );
      expect(search.total, who).toBe(2);
      const theirs = (await call(me, 'GET', `/api/community/users/${other.id}/posts`)).json();
      expect(theirs, who).toMatchObject({ items: [], total: 0 });
      const detail = await call(me, 'GET', `/api/community/posts/${postOf(other)}`);
      expect(detail.statusCode, who).toBe(404);
      const comments = await call(me, 'GET', `/api/community/posts/${postOf(other)}/comments`);
      expect(comments.statusCode, who).toBe(404);
    }
    const visitor = (await call(null, 'GET', `/api/community/posts/search?q=${uniq}`)).json();
    expect(visitor.total).toBe(3);
    const byCat = (await call(cat, 'GET', `/api/community/posts/search?q=${uniq}`)).json();
    expect(byCat.total).toBe(3);
  });

  it('hides their comments from each other', async () => {
    for (const [who, me, other] of pairs()) {
      const list = (await call(me, 'GET', `/api/community/posts/${catPost}/comments`)).json();
      const ids = list.items.map((c: { id: string }) => c.id);
      expect(ids, who).toEqual([commentOf(me)]);
      expect(list.total, who).toBe(1);
      void other;
    }
    const byCat = (await call(cat, 'GET', `/api/community/posts/${catPost}/comments`)).json();
    expect(byCat.total).toBe(2);
  });

  it('refuses comments on and reactions to each other’s posts and comments', async () => {
    for (const [who, me, other] of pairs()) {
      const comment = await call(me, 'POST', `/api/community/posts/${postOf(other)}/comments`, {
        content: 'Non dovrebbe',
      });
      expect(comment.statusCode, who).toBe(404);
      const reply = await call(me, 'POST', `/api/community/posts/${catPost}/comments`, {
        content: 'Risposta',
        parentCommentId: commentOf(other),
      });
      expect(reply.statusCode, who).toBe(400);
      const like = await call(me, 'PUT', `/api/community/posts/${postOf(other)}/like`);
      expect(like.statusCode, who).toBe(404);
      const likeComment = await call(me, 'PUT', `/api/community/comments/${commentOf(other)}/like`);
      expect(likeComment.statusCode, who).toBe(404);
    }
    const [n] = await t.database.query<{ n: number }>(
      `select (select count(*) from post_reactions where post_id = any($1::uuid[]))
         + (select count(*) from comment_reactions where comment_id = any($2::uuid[])) as n`,
      [
        [annPost, bobPost],
        [annComment, bobComment],
      ],
    );
    expect(Number(n.n)).toBe(0);
    // A third member may still do all of it.
    expect((await call(cat, 'PUT', `/api/community/posts/${annPost}/like`)).statusCode).toBe(200);
  });

  it('lifts everything once unblocked (the friendship does not come back)', async () => {
    // Only the blocker can lift it.
    expect((await unblock(bob, ann)).statusCode).toBe(200);
    const still = await call(bob, 'POST', `/api/chats/rooms/${roomId}/messages`, {
      content: 'Ci?',
    });
    expect(still.statusCode).toBe(403);

    expect((await unblock(ann, bob)).statusCode).toBe(200);
    const sent = await call(bob, 'POST', `/api/chats/rooms/${roomId}/messages`, {
      content: 'Di nuovo qui',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect((await call(bob, 'GET', `/api/listings/${annListing}`)).statusCode).toBe(200);
    expect((await call(bob, 'GET', `/api/listings?q=${uniq}`)).json().total).toBe(2);
    expect((await call(ann, 'GET', `/api/community/posts/${bobPost}`)).statusCode).toBe(200);
    const comments = (await call(bob, 'GET', `/api/community/posts/${catPost}/comments`)).json();
    expect(comments.total).toBe(2);
    expect((await call(ann, 'GET', `/api/users/${bob.id}/listings`)).json().total).toBe(1);
    const request = await call(bob, 'POST', '/api/connections', { userId: ann.id });
    expect(request.statusCode, request.body).toBe(201);
  });
});

describe('a suspended member’s posts, comments and ads', () => {
  let sue: Member;
  let reader: Member;
  let suePost: string;
  let readerPost: string;
  let sueComment: string;
  let sueAd: string;
  const word = 'Quasimodo';

  beforeAll(async () => {
    sue = await createMember(t, { displayName: 'Sue Sospesa' });
    reader = await createMember(t, { displayName: 'Rita Lettrice' });
    const book = await createBook(t, 'Ed è subito sera', 'Salvatore Quasimodo');
    suePost = (await createPost(t, sue, book, `${word} di Sue`)).id;
    readerPost = (await createPost(t, reader, book, `${word} di Rita`)).id;
    const c = await call(sue, 'POST', `/api/community/posts/${readerPost}/comments`, {
      content: 'Commento di Sue',
    });
    sueComment = c.json().id;
    sueAd = await adsClient(t).createAd(sue, {
      title: `${word} in promozione`,
      genre: 'poetry',
      keywords: 'quasimodo',
    });
    // Before: everything shows.
    expect((await call(null, 'GET', `/api/ads/${sueAd}`)).statusCode).toBe(200);
    await t.database.query(`update users set account_status = 'suspended' where id = $1`, [sue.id]);
  });

  it('vanish from the feed, search, profile posts and post detail', async () => {
    for (const who of [null, reader]) {
      const popular = (await call(who, 'GET', '/api/community/posts/popular')).json();
      expect(popular.items.map((p: { id: string }) => p.id)).not.toContain(suePost);
      const search = (await call(who, 'GET', `/api/community/posts/search?q=${word}`)).json();
      expect(search.items.map((p: { id: string }) => p.id)).toEqual([readerPost]);
      expect(search.total).toBe(1);
      const posts = (await call(who, 'GET', `/api/community/users/${sue.id}/posts`)).json();
      expect(posts.total ?? 0).toBe(0);
      expect((await call(who, 'GET', `/api/community/posts/${suePost}`)).statusCode).toBe(404);
    }
  });

  it('vanish from comment lists and cannot be liked', async () => {
    for (const who of [null, reader]) {
      const list = (await call(who, 'GET', `/api/community/posts/${readerPost}/comments`)).json();
      expect(list.items.map((c: { id: string }) => c.id)).not.toContain(sueComment);
      expect(list.total).toBe(0);
    }
    const like = await call(reader, 'PUT', `/api/community/comments/${sueComment}/like`);
    expect(like.statusCode).toBe(404);
  });

  it('vanish from sponsored slots, the promoted page and the ad page', async () => {
    expect((await call(null, 'GET', `/api/ads/${sueAd}`)).statusCode).toBe(404);
    expect((await call(reader, 'GET', `/api/ads/${sueAd}`)).statusCode).toBe(404);
    const promoted = (await call(null, 'GET', '/api/ads')).json();
    expect(promoted.items.map((a: { id: string }) => a.id)).not.toContain(sueAd);
    const slot = (
      await call(null, 'GET', '/api/ads/slot?placement=library&genre=poetry&q=quasimodo&limit=12')
    ).json();
    expect(JSON.stringify(slot)).not.toContain(sueAd);
  });
});
