import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app';
import { befriend, requester, createMember, type Member } from '../../test/members';
import { createListing } from '../../test/listings';
import { saleThroughChat } from '../../test/deals';
import { adsClient } from '../../test/ads';
import { savedSearchAlertsSettled } from '../saved-searches';

export let t: TestApp;
export let req: ReturnType<typeof requester>;
export let zef: Member; // the member who exports and then deletes their account
export let bea: Member; // buyer: a transaction, a conversation and reviews with zef
export let carlo: Member; // a friend of zef
export let dario: Member; // blocked by zef
export let elena: Member; // blocks zef (zef must not learn it from the export)
export const zefName = 'Zefirino Cancellato';
export const zefUsername = `zefi_${randomBytes(3).toString('hex')}`;
export const avatarFile = `${randomBytes(16).toString('hex')}.webp`;
export const avatarUrl = `/uploads/avatars/${avatarFile}`;

export const ids = {
  soldListing: '',
  openListing: '',
  beaListing: '',
  beaFound: '',
  roomId: '',
  transactionId: '',
  postOfBea: '',
  postOfZef: '',
  adId: '',
};
export const zefMessage = 'Grazie Bea, spedisco domani con il corriere.';
export const beaMessage = 'Perfetto, il mio indirizzo è in via Segreta 7.';

/** A sale completed through the chat's offer flow: contact, offer, accept, complete. */
export const completeSale = (seller: Member, buyer: Member) =>
  saleThroughChat(t, seller, buyer, { title: 'Le città invisibili', content: beaMessage });

/**
 * Registers the set-up above for the test file that calls it (first thing after its imports):
 * test files share one import of this module per worker, so its hooks cannot live at its top.
 */
export function useFixture(): void {
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
    // Zef watches a listing of bea's, bea watches zef's, and zef is on holiday (issue 22).
    ids.beaListing = (await createListing(t, bea, { title: 'Il barone rampante' })).id;
    expect((await req('PUT', `/api/me/watches/${ids.beaListing}`, zef)).statusCode).toBe(200);
    expect((await req('PUT', `/api/me/watches/${ids.openListing}`, bea)).statusCode).toBe(200);
    const away = new Date(Date.now() + 5 * 24 * 3600_000).toISOString().slice(0, 10);
    const holiday = await req('PUT', '/api/me/holiday', zef, { awayUntil: away });
    expect(holiday.statusCode, holiday.body).toBe(200);
    // Zef saves a library search; bea's own is hers alone.
    for (const [who, name, filters] of [
      [zef, 'Calvino economico', { q: 'barone', maxPrice: 20 }],
      [bea, 'Di Bea', { q: 'visconte' }],
    ] as const) {
      const saved = await req('POST', '/api/me/saved-searches', who, { name, filters });
      expect(saved.statusCode, saved.body).toBe(201);
    }
    // A listing of bea's found by zef's search (matched after the answer).
    ids.beaFound = (
      await createListing(t, bea, { title: 'Il barone rampante, tascabile', price: 9 })
    ).id;
    await savedSearchAlertsSettled();

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
}
