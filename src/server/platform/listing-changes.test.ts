import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../test/app';
import { callAs, createMember, type Member } from '../test/members';
import { gattopardo } from '../test/listings';
import { createListingChanges, type ListingChange, type ListingChanges } from './listing-changes';

/**
 * The one "listing changed" hook: what the listings routes publish (before and after, created,
 * deleted), nothing when nothing a subscriber cares about changed, and a failing subscriber never
 * failing the request.
 */
let t: TestApp;
let changes: ListingChanges;
let seller: Member;
const seen: ListingChange[] = [];
const warnings: object[] = [];
const call = callAs(() => t);

beforeAll(async () => {
  const database = await createTestDatabase();
  changes = createListingChanges({
    query: (q, p) => database.query(q, p),
    log: { warn: (obj) => warnings.push(obj) },
  });
  changes.onListingChanged((c) => {
    seen.push(c);
  });
  changes.onListingChanged(() => {
    throw new Error('a subscriber that fails');
  });
  t = await createTestApp({ database, deps: { listingChanges: changes } });
  seller = await createMember(t);
}, 60_000);

describe('listing changes', () => {
  it('are published with what changed, after the answer, whatever a subscriber does', async () => {
    const created = await call(seller, 'POST', '/api/listings', gattopardo);
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    await changes.settled();
    expect(seen.at(-1)).toMatchObject({
      listingId: id,
      sellerId: seller.id,
      before: null,
      after: { status: 'available', price: 12.5, hidden: false, title: 'Il Gattopardo' },
      created: true,
      deleted: false,
    });

    // An edit of the words only: nothing a subscriber hears of.
    const count = seen.length;
    expect(
      (await call(seller, 'PATCH', `/api/listings/${id}`, { description: 'Nuova' })).statusCode,
    ).toBe(200);
    await changes.settled();
    expect(seen).toHaveLength(count);

    expect((await call(seller, 'PATCH', `/api/listings/${id}`, { price: 10 })).statusCode).toBe(
      200,
    );
    expect(
      (await call(seller, 'POST', `/api/listings/${id}/status`, { status: 'reserved' })).statusCode,
    ).toBe(200);
    expect((await call(seller, 'DELETE', `/api/listings/${id}`)).statusCode).toBe(204);
    await changes.settled();
    const [price, reserved, deleted] = seen.slice(count);
    expect(price).toMatchObject({ before: { price: 12.5 }, after: { price: 10 } });
    expect(reserved).toMatchObject({
      before: { status: 'available' },
      after: { status: 'reserved' },
    });
    expect(deleted).toMatchObject({ deleted: true, after: null, before: { status: 'reserved' } });
    // The failing subscriber was logged for each change, and never failed a request.
    expect(warnings.length).toBe(seen.length);
  });
});
