import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/app';
import type { Member } from '../../test/members';
import { bothConfirm } from '../../test/deals';
import { openTradeDeal, type TradeDeal } from '../../test/trades';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * A trade is one trade (issue 33 item 8): its two members each have one line for it in their
 * history, naming the books they gave and received, and review each other once.
 */
let t: TestApp, req: Requester;
let owner: Member, proposer: Member, third: Member;

beforeAll(async () => {
  ({ t, req, owner, proposer, third } = await appWithMembers({
    owner: { displayName: 'Ornella Owner' },
    proposer: { displayName: 'Piero Proposer' },
    third: { displayName: 'Tullio Third' },
  }));
}, SIGN_UP_TIMEOUT);

const trades = async (who: Member, listingId?: string) =>
  (
    await req('GET', `/api/reviews/trades${listingId ? `?listingId=${listingId}` : ''}`, who)
  ).json();

async function completedTrade(count = 2): Promise<TradeDeal & { titles: Record<string, string> }> {
  const d = await openTradeDeal(t, owner, proposer, { count });
  await bothConfirm(t, owner, proposer, d.dealId);
  const rows = await t.database.query<{ id: string; title: string }>(
    'select id::text, title from book_listings where id = any($1::uuid[])',
    [[d.wanted, ...d.offered]],
  );
  return { ...d, titles: Object.fromEntries(rows.map((r) => [r.id, r.title])) };
}

describe('a completed trade in each member’s history', () => {
  it('is one line each, naming what each gave and received', async () => {
    const d = await completedTrade(2);
    const mine = (await trades(proposer)).items.filter(
      (x: { other: { id: string } }) => x.other.id === owner.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      kind: 'trade',
      role: 'buyer',
      reviewable: true,
      myReview: null,
      books: {
        given: d.offered.map((id) => d.titles[id]).sort(),
        received: [d.titles[d.wanted]],
      },
    });
    const theirs = (await trades(owner)).items.filter(
      (x: { other: { id: string } }) => x.other.id === proposer.id,
    );
    expect(theirs).toHaveLength(1);
    expect(theirs[0]).toMatchObject({
      kind: 'trade',
      role: 'seller',
      transactionId: mine[0].transactionId,
      books: { given: [d.titles[d.wanted]], received: mine[0].books.given },
    });
    // Found from any of its books (the chat's review button under the offer).
    for (const id of [d.wanted, ...d.offered]) {
      const page = await trades(owner, id);
      expect(page.total, id).toBe(1);
      expect(page.items[0].transactionId).toBe(mine[0].transactionId);
    }
    expect((await trades(third, d.wanted)).total).toBe(0);
  });

  it('takes one review each way: a second is refused, a third member cannot; both publish together', async () => {
    await completedTrade(1);
    const [line] = (await trades(proposer)).items;
    const transactionId = line.transactionId as string;
    const first = await req('POST', '/api/reviews', proposer, {
      transactionId,
      rating: 5,
      text: 'Scambio perfetto, libro come descritto',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ subjectId: owner.id, published: false, kind: 'trade' });
    const again = await req('POST', '/api/reviews', proposer, {
      transactionId,
      rating: 1,
      text: 'Ancora',
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await req('POST', '/api/reviews', third, { transactionId, rating: 1, text: 'x' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await req('POST', '/api/reviews', undefined, { transactionId, rating: 1, text: 'x' }))
        .statusCode,
    ).toBe(401);
    // The owner is told a review waits for theirs: once, for the one trade.
    const waiting = (await req('GET', '/api/notifications', owner))
      .json()
      .items.filter((n: { type: string }) => n.type === 'review.waiting');
    expect(waiting).toHaveLength(1);
    const [ownerLine] = (await trades(owner)).items;
    expect(ownerLine).toMatchObject({ transactionId, theirReviewWaiting: true });
    const second = await req('POST', '/api/reviews', owner, {
      transactionId,
      rating: 4,
      text: 'Tutto bene',
    });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().published).toBe(true);
    // Each member has exactly one review from the other.
    for (const [who, by] of [
      [owner, proposer],
      [proposer, owner],
    ] as const) {
      const page = (await req('GET', `/api/users/${who.id}/reviews`)).json();
      expect(page.items.map((r: { author: { id: string } }) => r.author.id)).toEqual([by.id]);
    }
  });
});
