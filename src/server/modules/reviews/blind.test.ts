import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { requester, createMember, type Member } from '../../test/members';
import { saleThroughChat } from '../../test/deals';
import { createWebFixture } from '../../platform/spa/web.fixture';
import { runJob } from '../../platform/jobs';

/**
 * Reviews that cannot retaliate (issue 22 item 7, decision 0073): a review is hidden from
 * everyone but its author until the other party has written theirs (both are then published
 * together) or 14 days have passed since the transaction was agreed.
 */
let t: TestApp;
let req: ReturnType<typeof requester>;
// Near the real time: the notification of a waiting review is shown while the database's own
// clock says its 14 days last.
let clock = new Date();
const DAY = 24 * 60 * 60 * 1000;
const later = (ms: number) => (clock = new Date(clock.getTime() + ms));

beforeAll(async () => {
  // With the web app's shell: a profile page's head (its description) states the rating too.
  t = await createTestApp({
    deps: { now: () => clock },
    config: { webDir: createWebFixture().dir },
  });
  req = requester(t);
}, 120_000);

interface Pair {
  seller: Member;
  buyer: Member;
  txId: string;
  agreedAt: Date;
}

/** Two new members and a sale between them, agreed now by the test clock. */
async function pair(title: string): Promise<Pair> {
  const seller = await createMember(t, { displayName: `Venditrice ${title}` });
  const buyer = await createMember(t, { displayName: `Compratore ${title}` });
  const { transactionId } = await saleThroughChat(t, seller, buyer, {
    title,
    content: 'Lo prendo',
  });
  await t.database.query('update transactions set agreed_at = $2 where id = $1', [
    transactionId,
    clock,
  ]);
  return { seller, buyer, txId: transactionId, agreedAt: clock };
}

const review = (who: Member, transactionId: string, rating: number, text: string) =>
  req('POST', '/api/reviews', who, { transactionId, rating, text });

/** Everything a reader can get about a member's reviews, as one text to search. */
async function whatSeesOf(subject: Member, reader?: Member): Promise<string> {
  const list = await req('GET', `/api/users/${subject.id}/reviews`, reader);
  const profile = await req('GET', `/api/users/${subject.id}/profile`, reader);
  expect(list.statusCode).toBe(200);
  expect(profile.statusCode).toBe(200);
  const page = await headOf(subject);
  return [list.body, profile.body, page].join('\n');
}

/** The profile page as served (a crawler or a link preview reads its head). */
async function headOf(subject: Member): Promise<string> {
  const page = await t.inject({ method: 'GET', url: `/user/${subject.id}` });
  expect(page.statusCode).toBe(200);
  return page.body;
}
const RATED = /Valutazione [\d.,]+ su 5/;

const notificationsOf = async (who: Member) =>
  (await req('GET', '/api/notifications', who)).json().items as Array<{
    type: string;
    actor: { id: string } | null;
    subject: { type: string; id: string };
    data: Record<string, unknown>;
    link: string;
  }>;

describe('a review written alone', () => {
  let p: Pair;
  const SECRET = 'Imballaggio pessimo, mai più';
  beforeAll(async () => {
    p = await pair('Il Gattopardo');
    const res = await review(p.buyer, p.txId, 1, SECRET);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      published: false,
      publishedAt: new Date(p.agreedAt.getTime() + 14 * DAY).toISOString(),
    });
    later(60_000);
  });

  it('is hidden from the subject, third parties and visitors: no list, no count, no rating', async () => {
    const stranger = await createMember(t);
    for (const reader of [undefined, p.seller, stranger, p.buyer]) {
      const list = (await req('GET', `/api/users/${p.seller.id}/reviews`, reader)).json();
      expect(list).toMatchObject({ items: [], total: 0, average: null });
      const profile = (await req('GET', `/api/users/${p.seller.id}/profile`, reader)).json();
      expect(profile).toMatchObject({ rating: null, reviewCount: 0, totalTrades: 1 });
      expect(await whatSeesOf(p.seller, reader)).not.toContain(SECRET);
    }
    expect(await headOf(p.seller)).not.toMatch(RATED);
  });

  it('shows its author their own pending review, with when it will be published', async () => {
    const trades = (await req('GET', '/api/reviews/trades', p.buyer)).json();
    expect(trades.items[0]).toMatchObject({
      transactionId: p.txId,
      reviewable: true,
      reviewableUntil: new Date(p.agreedAt.getTime() + 14 * DAY).toISOString(),
      myReview: { text: SECRET, rating: 1, published: false },
      theirReview: null,
      theirReviewWaiting: false,
    });
  });

  it('tells the subject only that a review waits for theirs: no rating, no text, on any route', async () => {
    const res = await req('GET', '/api/reviews/trades', p.seller);
    expect(res.json().items[0]).toMatchObject({
      transactionId: p.txId,
      myReview: null,
      theirReview: null,
      theirReviewWaiting: true,
    });
    expect(res.body).not.toContain(SECRET);
    // The bell: "X has reviewed you: write yours to see it", without the review.
    const bell = await req('GET', '/api/notifications', p.seller);
    const waiting = (await notificationsOf(p.seller)).filter((n) => n.type === 'review.waiting');
    expect(waiting).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ id: p.buyer.id }),
        subject: { type: 'transaction', id: p.txId },
        link: `/profile/${p.seller.id}/transactions`,
      }),
    ]);
    expect(bell.body).not.toContain(SECRET);
    // The data export: received reviews are the published ones only.
    const exported = await req('POST', '/api/me/export', p.seller);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain(SECRET);
    expect(JSON.parse(exported.body).reviews.received).toEqual([]);
    // By id: editing it is refused without a word of it.
    const [{ id }] = await t.database.query<{ id: string }>(
      'select id from reviews where transaction_id = $1',
      [p.txId],
    );
    const patch = await req('PATCH', `/api/reviews/${id}`, p.seller, { rating: 5 });
    expect(patch.statusCode).toBe(403);
    expect(patch.body).not.toContain(SECRET);
    const [row] = await t.database.query<{ rating: number }>(
      'select rating from reviews where id = $1',
      [id],
    );
    expect(row.rating).toBe(1);
  });

  it('is in its author’s data export, pending as it is', async () => {
    const exported = JSON.parse((await req('POST', '/api/me/export', p.buyer)).body);
    expect(exported.reviews.written).toEqual([
      expect.objectContaining({
        transactionId: p.txId,
        text: SECRET,
        publishedAt: new Date(p.agreedAt.getTime() + 14 * DAY).toISOString(),
      }),
    ]);
  });
});

describe('the second review', () => {
  it('publishes both together, tells both members, and makes both final', async () => {
    const p = await pair('Il fu Mattia Pascal');
    const first = await review(p.seller, p.txId, 5, 'Pagamento immediato');
    expect(first.json().published).toBe(false);
    later(2 * DAY);
    const second = await review(p.buyer, p.txId, 4, 'Come descritto');
    expect(second.statusCode, second.body).toBe(201);
    const publishedAt = clock.toISOString();
    expect(second.json()).toMatchObject({ published: true, publishedAt });
    later(60_000);

    for (const [subject, text, rating] of [
      [p.buyer, 'Pagamento immediato', 5],
      [p.seller, 'Come descritto', 4],
    ] as const) {
      const list = (await req('GET', `/api/users/${subject.id}/reviews`)).json();
      expect(list).toMatchObject({ total: 1, average: rating });
      expect(list.items[0]).toMatchObject({ text, published: true, publishedAt });
      const profile = (await req('GET', `/api/users/${subject.id}/profile`)).json();
      expect(profile).toMatchObject({ rating, reviewCount: 1 });
    }
    // Each reads the other's in their trades now, and their export.
    const sellerTrades = (await req('GET', '/api/reviews/trades', p.seller)).json();
    expect(sellerTrades.items[0]).toMatchObject({
      myReview: { text: 'Pagamento immediato', published: true },
      theirReview: { text: 'Come descritto', author: { id: p.buyer.id } },
      theirReviewWaiting: false,
    });
    const exported = JSON.parse((await req('POST', '/api/me/export', p.seller)).body);
    expect(exported.reviews.received).toEqual([
      expect.objectContaining({ text: 'Come descritto', rating: 4 }),
    ]);

    // Both told, live: "your reviews are published"; the waiting notice is gone.
    for (const [who, actor] of [
      [p.seller, p.buyer],
      [p.buyer, p.seller],
    ] as const) {
      const mine = await notificationsOf(who);
      expect(mine.filter((n) => n.type === 'review.published')).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ id: actor.id }),
          subject: { type: 'transaction', id: p.txId },
          link: `/profile/${who.id}/transactions`,
        }),
      ]);
      expect(mine.filter((n) => n.type === 'review.waiting')).toEqual([]);
    }

    // Published, a review is final: no edit after reading the other's.
    const edit = await req('PATCH', `/api/reviews/${first.json().id}`, p.seller, { rating: 1 });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().error.message).toBe('This review is published and can no longer be changed');
    const inItalian = await req(
      'PATCH',
      `/api/reviews/${first.json().id}`,
      p.seller,
      { rating: 1 },
      'it',
    );
    expect(inItalian.json().error.message).toBe(
      'Questa recensione è pubblicata e non si può più modificare',
    );
    const rows = await t.database.query<{ rating: number; published_at: Date }>(
      'select rating, published_at from reviews where transaction_id = $1 order by rating',
      [p.txId],
    );
    expect(rows.map((r) => [r.rating, new Date(r.published_at).toISOString()])).toEqual([
      [4, publishedAt],
      [5, publishedAt],
    ]);
  });

  it('written by both at the same moment, publishes both once', async () => {
    const p = await pair('Lessico famigliare');
    const [a, b] = await Promise.all([
      review(p.seller, p.txId, 5, 'Puntuale'),
      review(p.buyer, p.txId, 5, 'Gentile'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    later(60_000);
    const rows = await t.database.query<{ published: boolean }>(
      'select published_at <= $2 as published from reviews where transaction_id = $1',
      [p.txId, clock],
    );
    expect(rows).toEqual([{ published: true }, { published: true }]);
    const published = await t.database.query(
      `select 1 from notifications where type = 'review.published' and subject_id = $1`,
      [p.txId],
    );
    expect(published).toHaveLength(2);
  });
});

describe('after 14 days', () => {
  it('publishes a review written alone, and closes the transaction to new reviews and edits', async () => {
    const p = await pair('La storia');
    const written = await review(p.buyer, p.txId, 3, 'Nella media');
    expect(written.statusCode).toBe(201);
    const until = p.agreedAt.getTime() + 14 * DAY;

    clock = new Date(until - 1000);
    expect((await req('GET', `/api/users/${p.seller.id}/reviews`)).json().total).toBe(0);
    const edited = await req('PATCH', `/api/reviews/${written.json().id}`, p.buyer, {
      text: 'Nella media, imballaggio buono',
    });
    expect(edited.statusCode, edited.body).toBe(200);

    clock = new Date(until);
    const list = (await req('GET', `/api/users/${p.seller.id}/reviews`)).json();
    expect(list).toMatchObject({ total: 1, average: 3 });
    expect(list.items[0]).toMatchObject({
      text: 'Nella media, imballaggio buono',
      published: true,
    });
    expect((await req('GET', `/api/users/${p.seller.id}/profile`)).json().rating).toBe(3);
    expect(await headOf(p.seller)).toMatch(RATED);
    // The job tells both parties it is published, once, however often it runs.
    const published = async (who: Member) =>
      (await req('GET', '/api/notifications', who))
        .json()
        .items.filter((n: { type: string }) => n.type === 'review.published').length;
    expect([await published(p.seller), await published(p.buyer)]).toEqual([0, 0]);
    await runJob(t.app, 'reviews published', clock);
    await runJob(t.app, 'reviews published', new Date(until + 60_000));
    expect([await published(p.seller), await published(p.buyer)]).toEqual([1, 1]);
    const sellerTrades = (await req('GET', '/api/reviews/trades', p.seller)).json();
    expect(sellerTrades.items[0]).toMatchObject({
      reviewable: false,
      theirReview: { text: 'Nella media, imballaggio buono' },
      theirReviewWaiting: false,
    });

    // Having read it, the seller can no longer answer it with a review of their own.
    const late = await review(p.seller, p.txId, 1, 'Vendetta');
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe('The 14 days to review this transaction are over');
    const edit = await req('PATCH', `/api/reviews/${written.json().id}`, p.buyer, { rating: 1 });
    expect(edit.statusCode).toBe(409);
    const rows = await t.database.query<{ rating: number }>(
      'select rating from reviews where transaction_id = $1',
      [p.txId],
    );
    expect(rows).toEqual([{ rating: 3 }]);
    clock = new Date();
  });
});

describe('reviews written before the rule', () => {
  it('stay published: the migration publishes them from when they were written', async () => {
    const p = await pair('Una questione privata');
    // A review as the table held it before migration 0041: no publication date, no other review.
    await t.database.query('alter table reviews alter column published_at drop not null');
    const [{ id }] = await t.database.query<{ id: string }>(
      `insert into reviews (transaction_id, author_id, subject_id, rating, text, created_at,
         updated_at, published_at)
       values ($1, $2, $3, 2, 'Recensione di prima', $4, $4, null) returning id`,
      [p.txId, p.buyer.id, p.seller.id, new Date(clock.getTime() - 1000)],
    );
    const sql = readFileSync(
      new URL('../../db/migrations/0041_double_blind_reviews.sql', import.meta.url),
      'utf8',
    );
    await t.database.exec(sql);
    const [row] = await t.database.query<{ published_at: Date; created_at: Date }>(
      'select published_at, created_at from reviews where id = $1',
      [id],
    );
    expect(new Date(row.published_at).toISOString()).toBe(new Date(row.created_at).toISOString());
    const list = (await req('GET', `/api/users/${p.seller.id}/reviews`)).json();
    expect(list).toMatchObject({ total: 1, average: 2 });
    expect(list.items[0]).toMatchObject({ text: 'Recensione di prima', published: true });
  });
});

describe('abuse', () => {
  let p: Pair;
  let intruder: Member;
  beforeAll(async () => {
    p = await pair('Ragazzi di vita');
    intruder = await createMember(t, { displayName: 'Ivo Intruso' });
  });

  const count = async () =>
    (
      await t.database.query<{ n: number }>(
        'select count(*)::int as n from reviews where transaction_id = $1',
        [p.txId],
      )
    )[0].n;

  it('refuses a review of a transaction one is not part of, as if it did not exist', async () => {
    expect((await review(intruder, p.txId, 1, 'Truffa')).statusCode).toBe(404);
    expect(
      (await req('POST', '/api/reviews', undefined, { transactionId: p.txId, rating: 1 }))
        .statusCode,
    ).toBe(401);
    expect(await count()).toBe(0);
    // Nothing changed for the parties: the intruder's attempt did not publish or hide anything.
    expect((await req('GET', '/api/reviews/trades', p.seller)).json().items[0]).toMatchObject({
      theirReviewWaiting: false,
    });
  });

  it('refuses NUL bytes and huge texts with a clear error, never a 500', async () => {
    const nul = await review(p.buyer, p.txId, 4, 'ok\u0000no');
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.fields.text).toBeTruthy();
    const huge = await review(p.buyer, p.txId, 4, 'x'.repeat(200_000));
    expect([400, 413]).toContain(huge.statusCode);
    const bigRating = await req('POST', '/api/reviews', p.buyer, {
      transactionId: p.txId,
      rating: 1e308,
    });
    expect(bigRating.statusCode).toBe(400);
    const longId = await req('POST', '/api/reviews', p.buyer, {
      transactionId: 'a'.repeat(10_000),
      rating: 4,
    });
    expect(longId.statusCode).toBe(400);
    expect(await count()).toBe(0);
  });

  it('keeps one review per member and transaction, even sent twice at once', async () => {
    const [a, b] = await Promise.all([
      review(p.buyer, p.txId, 4, 'Uno'),
      review(p.buyer, p.txId, 4, 'Due'),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    expect(await count()).toBe(1);
    // Still pending: the same member twice is not "both parties".
    expect((await req('GET', `/api/users/${p.seller.id}/reviews`)).json().total).toBe(0);
  });

  it('edits of another member’s pending review are refused and change nothing', async () => {
    const [{ id }] = await t.database.query<{ id: string }>(
      'select id from reviews where transaction_id = $1',
      [p.txId],
    );
    for (const who of [intruder, p.seller]) {
      const res = await req('PATCH', `/api/reviews/${id}`, who, { text: 'riscritta' });
      expect(res.statusCode).toBe(403);
    }
    expect((await req('PATCH', `/api/reviews/${id}`, undefined, { text: 'x' })).statusCode).toBe(
      401,
    );
    const [row] = await t.database.query<{ text: string }>(
      'select text from reviews where id = $1',
      [id],
    );
    expect(['Uno', 'Due']).toContain(row.text);
  });
});
