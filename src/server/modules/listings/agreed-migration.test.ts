import { beforeAll, describe, expect, it } from 'vitest';
import { listMigrations } from '../../db/migrate';
import type { TestApp } from '../../test/app';
import { createListing } from '../../test/listings';
import { offerFrom } from '../../test/deals';
import type { Member } from '../../test/members';
import { appWithMembers, SIGN_UP_TIMEOUT, type Requester } from '../../test/harness';

/**
 * Migration 0024 on rows written before it: every row is kept; duplicates that would break the
 * new constraints are resolved the same way every time.
 */
let t: TestApp, req: Requester;
let seller: Member, anna: Member, bruno: Member;
const migration = listMigrations().find((m) => m.name.startsWith('0024_'))!;

beforeAll(async () => {
  ({ t, req, seller, anna, bruno } = await appWithMembers({
    seller: { displayName: 'Sara Seller' },
    anna: { displayName: 'Anna Buyer' },
    bruno: { displayName: 'Bruno Buyer' },
  }));
}, SIGN_UP_TIMEOUT);

const q = <T>(text: string, params?: unknown[]) => t.database.query<T>(text, params);

describe('migration 0024 (agreed transactions, one accepted offer)', () => {
  it('keeps every row, resolves duplicates deterministically and marks offer sales agreed', async () => {
    // The state an earlier version could leave: the constraints are not there yet.
    await t.database.exec(
      'drop index offers_one_accepted_idx; drop index transactions_one_pending_idx',
    );
    const twice = await createListing(t, seller, { title: 'Lessico famigliare' });
    const first = await offerFrom(t, anna, twice.id);
    const second = await offerFrom(t, bruno, twice.id);
    await q(
      `update offers set status = 'accepted', answered_at = now() - interval '1 day' where id = $1`,
      [first],
    );
    await q(`update offers set status = 'accepted', answered_at = now() where id = $1`, [second]);

    const viaOffer = await createListing(t, seller, { title: 'Le città invisibili' });
    const done = await offerFrom(t, anna, viaOffer.id);
    await q(`update offers set status = 'completed' where id = $1`, [done]);
    // Recent: a sale is reviewed within 14 days of the agreement (decision 0073).
    const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const insertTx = async (listingId: string, buyer: Member, status: string, at: string) =>
      (
        await q<{ id: string }>(
          `insert into transactions (listing_id, buyer_id, seller_id, kind, status, created_at)
           values ($1, $2, $3, 'sale', $4, $5) returning id`,
          [listingId, buyer.id, seller.id, status, at],
        )
      )[0].id;
    const agreed = await insertTx(viaOffer.id, anna, 'completed', daysAgo(5));
    const alone = await createListing(t, seller, { title: 'La storia' });
    const unagreed = await insertTx(alone.id, bruno, 'completed', daysAgo(4));
    const waiting = await createListing(t, seller, { title: 'Menzogna e sortilegio' });
    const olderPending = await insertTx(waiting.id, anna, 'pending', daysAgo(3));
    const newerPending = await insertTx(waiting.id, bruno, 'pending', daysAgo(2));
    await q('update transactions set agreed_at = null');

    const count = async () =>
      (
        await q<{ o: number; t: number }>(
          `select (select count(*)::int from offers) as o,
             (select count(*)::int from transactions) as t`,
        )
      )[0];
    const before = await count();
    await t.database.exec(migration.sql);
    expect(await count()).toEqual(before);

    const statusOf = async (table: string, id: string) =>
      (await q<{ status: string }>(`select status from ${table} where id = $1`, [id]))[0].status;
    expect(await statusOf('offers', first)).toBe('accepted');
    expect(await statusOf('offers', second)).toBe('declined');
    expect(await statusOf('transactions', olderPending)).toBe('cancelled');
    expect(await statusOf('transactions', newerPending)).toBe('pending');
    const rows = await q<{ id: string; status: string; agreed: boolean }>(
      `select id, status, agreed_at is not null as agreed from transactions
       where id = any($1::uuid[])`,
      [[agreed, unagreed]],
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, [r.status, r.agreed]]))).toEqual({
      [agreed]: ['completed', true],
      [unagreed]: ['completed', false],
    });

    // The constraints now hold, and the sale that came from an offer can be reviewed.
    await expect(
      q(`update offers set status = 'accepted' where id = $1`, [second]),
    ).rejects.toThrow();
    const ok = await req('POST', '/api/reviews', anna, { transactionId: agreed, rating: 5 });
    expect(ok.statusCode, ok.body).toBe(201);
    const no = await req('POST', '/api/reviews', bruno, { transactionId: unagreed, rating: 1 });
    expect(no.statusCode).toBe(409);
  });
});
