import { beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, LISTING_TYPES } from '../../src/shared/marketplace';
import { createTestApp, type TestApp } from '../../src/server/test/app';
import { randomClientIp, signIn } from '../../src/server/test/members';
import type { SeedContext } from './types';
import { DEMO_PASSWORD, demoMembers } from './members';
import { runSeed } from './run';
import { demoListings, planDemoListings } from './listings';
import { demoConnections } from './connections';
import { demoConversations } from './chats';
import { demoPosts } from './community';
import { demoAds } from './ads';
import { ON_HOLIDAY } from './watching';
import { MEETING_PLACE } from './meetings';
import { TRADE_MEETING_PLACE } from './trades';
import { DEMO_TRACKING } from './deals-post';

/**
 * The demo seed's spec. The whole seed runs twice on one app (a dozen password hashes, a few
 * hundred listings, a month of ad events: the slow part, done once for every step): every table
 * keeps its row count on the second run, then each step's describe reads what it made, through
 * the API as the app shows it. The tests only read (a sign-in adds a session, nothing a later
 * test counts), so their order does not matter.
 */
let t: TestApp;
let first: SeedContext;
let second: SeedContext;
let firstRunMs: number;
let tablesAfterFirst: Record<string, number>;
let tablesAfterSecond: Record<string, number>;
let bundlesAfterFirst: BundleRow[];

const quiet = () => {};
const query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) =>
  t.database.query<T>(sql, params);
const count = async (sql: string) => (await query<{ n: number }>(sql))[0].n;
/** A GET's JSON body, as a visitor or with a member's session cookie. */
const read = async (url: string, cookie?: string) =>
  (await t.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} })).json();
const signInAs = (email: string) => signIn(t, email, DEMO_PASSWORD);

/** The row count of every table of the schema. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = await query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  const [counts] = await query<Record<string, number>>(
    `select ${tables.map(({ name }) => `(select count(*)::int from "${name}") as "${name}"`).join(', ')}`,
  );
  return counts;
}

interface BundleRow {
  id: string;
  seller_id: string;
  books: number;
  shipping: number;
}
const bundleOffers = () =>
  query<BundleRow>(
    `select o.id::text, o.seller_id, o.shipping_amount::float8 as shipping,
       (select count(*)::int from offer_listings ol where ol.offer_id = o.id) as books
     from offers o where o.bundle and o.status = 'pending'`,
  );

beforeAll(async () => {
  t = await createTestApp();
  const started = Date.now();
  first = await runSeed({ config: t.config, database: t.database, log: quiet });
  firstRunMs = Date.now() - started;
  tablesAfterFirst = await rowCounts();
  bundlesAfterFirst = await bundleOffers();
  second = await runSeed({ config: t.config, database: t.database, log: quiet });
  tablesAfterSecond = await rowCounts();
}, 300_000); // the whole seed, twice: password hashes, a few hundred listings, a month of ad events

describe('seed:demo run twice', () => {
  it('changes no table on the second run: every step skips what exists', () => {
    expect(Object.keys(tablesAfterFirst).length).toBeGreaterThan(40);
    expect(tablesAfterSecond).toEqual(tablesAfterFirst);
  });

  it('creates the demo members once; running it again changes nothing', async () => {
    expect(first.members).toHaveLength(demoMembers.length);
    expect(tablesAfterFirst.users).toBe(demoMembers.length);
    expect(await count('select count(*)::int as n from users')).toBe(demoMembers.length);
    expect(second.members.map((m) => m.id)).toEqual(first.members.map((m) => m.id));
  });

  it('a demo member signs in by username with the documented password, confirmed, with a profile', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/accounts/sign-in',
      remoteAddress: randomClientIp(),
      payload: { identifier: 'emily_reads', password: DEMO_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      email: 'emily.carter@example.org',
      displayName: 'Emily Carter',
      username: 'emily_reads',
      accountStatus: 'verified',
      locationCity: 'London',
      preferredLanguage: 'en',
    });
    const mail = await query('select * from mail_outbox');
    expect(mail).toHaveLength(0);
  });
});

describe('seed:demo listings step', () => {
  const plan = planDemoListings(demoMembers);

  it('plans a few hundred listings, the same on every run, spread over members and kinds', () => {
    expect(plan.length).toBeGreaterThanOrEqual(300);
    expect(plan.length).toBeLessThanOrEqual(420);
    expect(planDemoListings(demoMembers)).toEqual(plan);
    expect(plan.slice(0, demoListings.length).map((l) => l.title)).toEqual(
      demoListings.map((l) => l.title),
    );
    // No member lists the same title twice (the idempotency key).
    expect(new Set(plan.map((l) => `${l.seller}|${l.title}`)).size).toBe(plan.length);
    for (const m of demoMembers) {
      expect(plan.filter((l) => l.seller === m.username).length, m.username).toBeGreaterThan(10);
    }
    expect(new Set(plan.map((l) => l.type))).toEqual(new Set(LISTING_TYPES));
    expect(new Set(plan.map((l) => l.condition))).toEqual(new Set(CONDITIONS));
    expect(new Set(plan.map((l) => l.status))).toEqual(
      new Set(['available', 'reserved', 'sold', 'traded']),
    );
    expect(new Set(plan.map((l) => l.genre)).size).toBeGreaterThanOrEqual(17);
    for (const l of plan) {
      // Trade-only listings have no price; the others a positive one.
      if (l.type === 'trade') expect(l.price).toBeNull();
      else expect(l.price).toBeGreaterThan(0);
      if (l.status === 'sold') expect(l.type).not.toBe('trade');
      if (l.status === 'traded') expect(l.type).not.toBe('sell');
      if (l.buyer) expect(l.buyer).not.toBe(l.seller);
    }
  });

  it('lists every planned book once with its deals; a second run adds nothing', async () => {
    expect(await count('select count(*)::int as n from book_listings')).toBe(plan.length);
    expect(tablesAfterSecond.books).toBe(tablesAfterFirst.books);
    expect(
      await count(`select count(*)::int as n from transactions where status = 'completed'`),
    ).toBe(plan.filter((l) => l.buyer).length);
    expect(
      await count(`select count(*)::int as n from book_listings where cover_url is not null`),
    ).toBe(0);
    // Batched: seconds, not a statement per listing (generous for a busy machine).
    expect(firstRunMs).toBeLessThan(60_000);

    const ferrante = await read('/api/listings?q=ferrante&status=all&limit=60');
    const titles = new Set(ferrante.items.map((i: { title: string }) => i.title));
    // The library leaves out the listings of the demo seller on holiday (seed/watching.ts).
    const listed = plan.filter((l) => l.seller !== ON_HOLIDAY);
    expect(titles).toEqual(
      new Set(listed.filter((l) => l.author === 'Elena Ferrante').map((l) => l.title)),
    );
    expect(titles.has('L’amica geniale')).toBe(true);

    const library = await read('/api/listings');
    // The demo deals seeded later (a meeting proposed, a parcel in transit) reserve one each, the
    // trade (seed/trades.ts) both its books.
    const inDeals = await count(
      `select count(*)::int as n from offer_listings ol join deals d on d.offer_id = ol.offer_id
       where d.status = 'open'`,
    );
    expect(inDeals).toBe(4);
    expect(library.total).toBe(listed.filter((l) => l.status === 'available').length - inDeals);
    const shelves = await read('/api/shelves');
    expect(shelves.shelves.length).toBeGreaterThan(15);
    for (const shelf of shelves.shelves.slice(0, 4)) expect(shelf.items).toHaveLength(12);
  });
});

describe('seed:demo connections step', () => {
  it('adds friendships and pending requests both ways once; a second run adds nothing', async () => {
    const rows = await query<{ status: string; n: number }>(
      'select status, count(*)::int as n from connections group by status order by status',
    );
    const pending = demoConnections.filter((c) => c[3] === null).length;
    expect(rows).toEqual([
      { status: 'accepted', n: demoConnections.length - pending },
      { status: 'pending', n: pending },
    ]);

    // Giulia: three friends, two requests to answer and one waiting.
    const cookie = await signInAs('giulia.bianchi@example.org');
    expect((await read('/api/connections', cookie)).total).toBe(3);
    const requests = await read('/api/connections/requests', cookie);
    expect(requests.incoming.total).toBe(2);
    expect(requests.outgoing.total).toBe(1);

    // Francesca and Emily have traded books (the listings seed records the sales): that
    // friendship comes first, and the list is sorted by interactions.
    const fra = await signInAs('francesca.esposito@example.org');
    const friends = await read('/api/connections', fra);
    expect(friends.items[0].member.username).toBe('emily_reads');
    expect(friends.items[0].booksExchanged).toBeGreaterThan(0);
    const counts = friends.items.map((f: { interactions: number }) => f.interactions);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });
});

describe('seed:demo chats step', () => {
  it('adds the demo conversations once, one of them with an open offer on a listing', async () => {
    const [counts] = await query(
      // The demo deals (a meeting proposed), the bundle (seed/bundles.ts) and the seller on
      // holiday's automatic reply (seed/watching.ts) each have a conversation of their own.
      `with others as (
         select room_id from deals
         union select room_id from offers where bundle
         union select room_id from holiday_replies)
       select (select count(*)::int from chat_rooms r
                where r.id not in (select room_id from others)) as rooms,
              (select count(*)::int from chat_messages m
                where m.room_id not in (select room_id from others)) as messages,
              (select count(*)::int from offers where status = 'pending' and not bundle)
                as offers`,
    );
    expect(counts).toEqual({
      rooms: demoConversations.length,
      messages: demoConversations.reduce((n, c) => n + c.lines.length, 0),
      offers: 1,
    });
  });

  it('shows a demo member the conversation, the listing card, the offer and unread messages', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/auth/sign-in/username',
      remoteAddress: randomClientIp(),
      payload: { username: 'giulia_legge', password: DEMO_PASSWORD },
    });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    const rooms = await read('/api/chats/rooms', cookie);
    const withMarco = rooms.items.find((r: { listing: { title: string } | null }) => r.listing);
    expect(withMarco.listing.title).toBe('Il nome della rosa');
    expect(withMarco.lastMessage).toMatchObject({
      type: 'offer',
      offer: { amount: 8, status: 'pending' },
    });
    expect(withMarco.unreadCount).toBe(2);
    const page = await read(`/api/chats/rooms/${withMarco.id}/messages`, cookie);
    expect(page.items[0]).toMatchObject({
      type: 'listing',
      listing: { title: 'Il nome della rosa' },
    });
  });
});

describe('seed:demo notifications step', () => {
  it('gives Giulia her two friend requests under the bell, once however often it runs', async () => {
    expect(tablesAfterSecond.notifications).toBe(tablesAfterFirst.notifications);
    const cookie = await signInAs('giulia.bianchi@example.org');
    // Her wishlist's and saved searches' alerts (scripts/seed/) are under the bell too.
    const items = (await read('/api/notifications', cookie)).items.filter((n: { type: string }) =>
      n.type.startsWith('friend.'),
    );
    expect(items.map((n: { type: string }) => n.type)).toEqual([
      'friend.request',
      'friend.request',
    ]);
    const unread = (await read('/api/notifications/unread-count', cookie)).unread;
    const wishlist = await query(
      `select 1 from notifications n join users u on u.id = n.recipient_id
       where u.email = 'giulia.bianchi@example.org' and n.type in ('wishlist.listed', 'trade.match', 'savedSearch.match')`,
    );
    expect(unread).toBe(2 + wishlist.length);
    expect(items[0].link).toMatch(/^\/profile\/[^/]+\/friends$/);
  });
});

describe('seed:demo wishlist step', () => {
  it('adds wishlists that produce alerts and trade matches, once', async () => {
    const [counts] = await query<{ items: number; alerts: number; matches: number }>(
      `select (select count(*)::int from wishlist_items) as items,
         (select count(*)::int from notifications where type = 'wishlist.listed') as alerts,
         (select count(*)::int from notifications where type = 'trade.match') as matches`,
    );
    expect(counts.items).toBeGreaterThan(8);
    expect(counts.alerts).toBeGreaterThanOrEqual(counts.items);
    // Two pairs, both members of each told once.
    expect(counts.matches).toBe(4);

    // Giulia sees her trade partner, and her wishlist through the API.
    const cookie = await signInAs('giulia.bianchi@example.org');
    const matches = await read('/api/me/trade-matches', cookie);
    expect(matches.total).toBeGreaterThanOrEqual(1);
    expect(matches.items[0].member.username).toBe('lucaferrari');
    const me = await read('/api/me', cookie);
    const wishlist = await read(`/api/users/${me.id}/wishlist`, cookie);
    expect(wishlist.total).toBeGreaterThanOrEqual(4);
    expect(
      wishlist.items.every((i: { availableListings: number }) => i.availableListings > 0),
    ).toBe(true);
  });
});

describe('seed:demo saved-searches step', () => {
  it('adds saved searches whose matches ring the bell, once', async () => {
    const [counts] = await query<{ searches: number; matches: number; told: number }>(
      `select (select count(*)::int from saved_searches) as searches,
         (select count(*)::int from saved_search_matches) as matches,
         (select count(*)::int from notifications where type = 'savedSearch.match') as told`,
    );
    expect(counts.searches).toBe(7);
    expect(counts.matches).toBeGreaterThan(3);
    expect(counts.told).toBe(counts.matches);

    const cookie = await signInAs('giulia.bianchi@example.org');
    const mine = await read('/api/me/saved-searches', cookie);
    expect(mine.items.map((s: { name: string }) => s.name)).toEqual(['Calvino']);
  });
});

describe('seed:demo community step', () => {
  it('adds posts, likes and comments once, so both tabs have content', async () => {
    expect(await count('select count(*)::int as n from community_posts')).toBe(demoPosts.length);

    // Popular this week, for visitors: a full first page, most liked first, with books.
    const popular = await read('/api/community/posts/popular');
    expect(popular.total).toBe(demoPosts.length);
    expect(popular.items).toHaveLength(10);
    const likes = popular.items.map((p: { likeCount: number }) => p.likeCount);
    expect(likes).toEqual([...likes].sort((a, b) => b - a));
    expect(popular.items[0]).toMatchObject({
      author: { username: 'marco_rossi' },
      likeCount: 4,
      commentCount: 3,
      book: { title: 'SPQR. Storia dell’antica Roma' },
    });
    expect(popular.items.every((p: { book: unknown }) => p.book !== null)).toBe(true);

    // Giulia's friends (Marco, Francesca, Emily) have posted.
    const cookie = await signInAs('giulia.bianchi@example.org');
    const friends = await read('/api/community/posts/friends', cookie);
    const authors = new Set(
      friends.items.map((p: { author: { username: string } }) => p.author.username),
    );
    expect([...authors].sort()).toEqual(['emily_reads', 'fra_esposito', 'marco_rossi']);

    // The comments are threaded and oldest first.
    const comments = await read(`/api/community/posts/${popular.items[0].id}/comments`);
    expect(comments.items.map((c: { content: string }) => c.content)[0]).toMatch(/Cicerone/);
    expect(comments.items[1].parentCommentId).toBe(comments.items[0].id);
    expect(comments.items[0].likeCount).toBe(1);
  });
});

describe('seed:demo ads step', () => {
  it('adds ads with a month of events that analytics can show; a second run adds nothing', async () => {
    expect(tablesAfterSecond.book_advertisements).toBe(demoAds.length);
    expect(tablesAfterSecond.ad_events).toBeGreaterThan(5000);

    // Luca's ad: a month of figures, every counter agreeing with the events.
    const cookie = await signInAs('luca.ferrari@example.org');
    const mine = await read('/api/ads/mine', cookie);
    expect(mine.items).toHaveLength(1);
    const ad = mine.items[0];
    expect(ad).toMatchObject({ status: 'active', running: true, reviewCount: 3 });
    const analytics = await read(`/api/ads/${ad.id}/analytics?timeframe=30d`, cookie);
    expect(analytics.series).toHaveLength(30);
    expect(analytics.series.filter((d: { impressions: number }) => d.impressions > 0)).toHaveLength(
      30,
    );
    expect(analytics.totals.clicks).toBeGreaterThan(0);
    expect(analytics.totals.clickRate).toBeGreaterThan(2);
    expect(analytics.totals.clickRate).toBeLessThan(8);
    expect(analytics.recent).toHaveLength(20);
    const [{ events }] = await query<{ events: number }>(
      `select count(*)::int as events from ad_events where ad_id = $1 and kind = 'impression'`,
      [ad.id],
    );
    expect(ad.viewCount).toBe(events);

    // Readers see the running ads in the promoted list and the slots (not the paused or draft one).
    const promoted = await read('/api/ads');
    expect(promoted.total).toBe(3);
    const slot = await read('/api/ads/slot?placement=library&genre=fantasy');
    expect(slot.items[0].title).toBe('Le cronache di Valdombra');
  });
});

describe('seed:demo reviews step', () => {
  it('reviews completed demo trades once; the profiles show them', async () => {
    expect(tablesAfterFirst.reviews).toBeGreaterThan(0);
    expect(tablesAfterSecond.reviews).toBe(tablesAfterFirst.reviews);

    // Every review is by a party of a completed transaction, about the other party.
    const wrong = await count(
      `select count(*)::int as n from reviews r join transactions t on t.id = r.transaction_id
       where t.status <> 'completed'
          or not ((r.author_id = t.buyer_id and r.subject_id = t.seller_id)
               or (r.author_id = t.seller_id and r.subject_id = t.buyer_id))`,
    );
    expect(wrong).toBe(0);
    // A pair is published when its second review was written, a lone review 14 days after
    // the trade (decision 0073).
    const unpublishedPair = await count(
      `select count(*)::int as n from reviews r
       where (select count(*) from reviews o where o.transaction_id = r.transaction_id) = 2
         and r.published_at <> (select max(o.created_at) from reviews o
                                where o.transaction_id = r.transaction_id)`,
    );
    expect(unpublishedPair).toBe(0);
    const [reviewed] = await query<{ subject_id: string }>(
      'select subject_id from reviews where published_at <= now() limit 1',
    );
    const page = await read(`/api/users/${reviewed.subject_id}/reviews`);
    expect(page.total).toBeGreaterThan(0);
    const profile = await read(`/api/users/${reviewed.subject_id}/profile`);
    expect(profile.rating).toBe(page.average);
  });
});

describe('seed:demo watching step', () => {
  it('adds watched listings and a seller on holiday, once', async () => {
    const [counts] = await query<{
      watches: number;
      holidays: number;
      told: number;
      replies: number;
    }>(
      `select (select count(*)::int from listing_watches) as watches,
         (select count(*)::int from member_holidays) as holidays,
         (select count(*)::int from notifications where type = 'watch.changed') as told,
         (select count(*)::int from chat_messages
          where type = 'system' and content like 'holiday|%') as replies`,
    );
    expect(counts.watches).toBeGreaterThanOrEqual(6);
    expect(counts.holidays).toBe(1);
    expect(counts.told).toBeGreaterThanOrEqual(1);
    expect(counts.replies).toBe(1);

    // Emily's watched page lists them; Dan's profile says when he is back.
    const cookie = await signInAs('emily.carter@example.org');
    const page = await read('/api/me/watches', cookie);
    expect(page.total).toBeGreaterThanOrEqual(1);
    // A watched listing got cheaper: a watcher's bell says so.
    const [watcher] = await query<{ recipient_id: string }>(
      `select recipient_id from notifications where type = 'watch.changed'`,
    );
    const [someone] = await query<{ email: string }>(
      'select email::text as email from users where id = $1',
      [watcher.recipient_id],
    );
    const bell = await read('/api/notifications', await signInAs(someone.email));
    expect(bell.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'watch.changed',
          data: expect.objectContaining({ context: 'priceDrop' }),
        }),
      ]),
    );
    // Emily wrote to Dan about a listing and reads his automatic reply.
    const rooms = await read('/api/chats/rooms', cookie);
    const withDan = rooms.items.find((r: { participants: Array<{ username: string }> }) =>
      r.participants.some((p) => p.username === 'dan_hughes'),
    );
    expect(withDan).toBeTruthy();
    const messages = await read(`/api/chats/rooms/${withDan.id}/messages`, cookie);
    expect(messages.items.at(-1)).toMatchObject({
      type: 'system',
      content: expect.stringMatching(/^holiday\|\d{4}-\d{2}-\d{2}\|Travelling/),
    });
    const [dan] = await query<{ id: string }>(`select id from users where username = 'dan_hughes'`);
    const holiday = await read(`/api/users/${dan.id}/holiday`);
    expect(holiday.backAt).not.toBeNull();
  });
});

describe('seed:demo meetings step', () => {
  it('opens a hand-to-hand deal with a meeting proposed, once', async () => {
    const sales = await query<{ id: string }>(
      `select m.deal_id::text as id from deal_meetings m join deals d on d.id = m.deal_id
       join offers o on o.id = d.offer_id where o.kind = 'sale'`,
    );
    expect(sales).toHaveLength(1);

    // Marco reads the deal as the app shows it: Emily's proposal waits for his answer.
    const cookie = await signInAs('marco.rossi@example.org');
    const res = await t.inject({
      method: 'GET',
      url: `/api/deals/${sales[0].id}`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().deal).toMatchObject({
      method: 'hand',
      status: 'open',
      role: 'seller',
      buyer: { username: 'emily_reads' },
      meeting: { current: { place: MEETING_PLACE, proposedBy: 'buyer', status: 'open' } },
    });
    const room = await read(`/api/chats/rooms/${res.json().deal.roomId}/messages`, cookie);
    expect(room.items.at(-1)).toMatchObject({ type: 'deal', content: 'meeting.proposed' });
  });
});

describe('seed:demo trades step', () => {
  it('opens a trade deal with a meeting proposed, once', async () => {
    const trades = await query<{ id: string }>(
      `select d.id::text from deals d join offers o on o.id = d.offer_id
       where o.kind = 'trade'`,
    );
    expect(trades).toHaveLength(1);

    // Davide reads the deal as the app shows it: a trade of two books, Sofia's meeting to answer.
    const [davide] = await query<{ email: string }>(
      `select email from users where username = 'davidegreco'`,
    );
    const cookie = await signInAs(davide.email);
    const res = await t.inject({
      method: 'GET',
      url: `/api/deals/${trades[0].id}`,
      headers: { cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    const deal = res.json().deal;
    expect(deal).toMatchObject({
      kind: 'trade',
      method: 'hand',
      status: 'open',
      role: 'seller',
      amount: null,
      buyer: { username: 'sofia_ricci' },
      meeting: { current: { place: TRADE_MEETING_PLACE, proposedBy: 'buyer', status: 'open' } },
    });
    expect(new Set(deal.listings.map((l: { ownerId: string }) => l.ownerId)).size).toBe(2);
  });
});

describe('seed:demo bundles step', () => {
  it('adds one open bundle offer for three books of one seller, with their rule, once', async () => {
    expect(bundlesAfterFirst).toHaveLength(1);
    expect(bundlesAfterFirst[0]).toMatchObject({ books: 3 });
    const [rule] = await query<{ shipping: number }>(
      'select shipping_amount::float8 as shipping from bundle_rules where seller_id = $1',
      [bundlesAfterFirst[0].seller_id],
    );
    expect(rule.shipping).toBe(6);
    expect(await bundleOffers()).toEqual(bundlesAfterFirst);

    // The buyer sees the offer in the conversation, after a card of each book.
    const cookie = await signInAs('chiara.romano@example.org');
    const rooms = await read('/api/chats/rooms', cookie);
    const found = [];
    for (const room of rooms.items) {
      const page = await read(`/api/chats/rooms/${room.id}/messages`, cookie);
      const offer = page.items.find(
        (m: { offer?: { id: string } }) => m.offer?.id === bundlesAfterFirst[0].id,
      );
      if (offer) found.push(page.items.filter((m: { type: string }) => m.type === 'listing'));
    }
    expect(found).toHaveLength(1);
    expect(found[0].length).toBeGreaterThanOrEqual(3);
  });
});

describe('seed:demo parcel in transit', () => {
  it('adds one deal by post shipped with tracking, once, as its two sides read it', async () => {
    const rows = await query<{ id: string }>(
      'select deal_id::text as id from deal_posts where tracking = $1',
      [DEMO_TRACKING],
    );
    expect(rows).toHaveLength(1);
    const buyer = await signInAs('emily.carter@example.org');
    const { deal } = await read(`/api/deals/${rows[0].id}`, buyer);
    expect(deal).toMatchObject({
      method: 'post',
      status: 'open',
      role: 'buyer',
      post: { state: 'shipped', carrier: 'poste_italiane', tracking: DEMO_TRACKING },
    });
    expect(deal.post.trackingUrl).toMatch(/^https:\/\//);
    expect(deal.total).toBeGreaterThan(deal.amount);
  });
});
