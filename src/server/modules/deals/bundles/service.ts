import { isUuid } from '@shared/schemas/common';
import type { ChatMessage } from '@shared/schemas/chats';
import {
  bundleHandOnly,
  bundleShipping,
  type BundleOfferInput,
  type BundleQuote,
  type BundleRule,
} from '@shared/schemas/bundles';
import type { Deal } from '@shared/schemas/deals';
import { AppError, badRequest, conflict } from '../../../platform/errors';
import { t } from '../../../platform/i18n';
import { pickLanguage } from '@shared/constants';
import {
  listingNotFound,
  lockReach,
  mayReachListings,
  refuseWhileAway,
} from '../../../platform/reach';
import { inTransaction, sqlState, type Query } from '../../../db/tx';
import { listingUnavailable, type ChatContext, insertMessage, directRoom } from '../../chats';
import { offerNotices } from '../offers/notifications';
import { claimHolidayReply } from '../../profiles';

interface BundleListingRow {
  id: string;
  seller_id: string;
  seller_name: string;
  status: string;
  listing_type: string;
  hidden: boolean;
  currency: Deal['currency'];
  title: string;
  author: string;
  cover_url: string | null;
  price: number | null;
  shipping_cost: number | null;
}

const field = (key: string) => badRequest(key, { listingIds: key });

/** The titles as a list in `language`, each quoted its way: «A», «B» e «C»; “A” and “B”. */
const titleList = (titles: string[]) => (language: string) =>
  new Intl.ListFormat(language, { type: 'conjunction' }).format(
    titles.map((title) => t(pickLanguage(language), 'deals.quoted', { title })),
  );

/** 400 on `delivery`: post is not possible, and which books keep it from being (decision 0076). */
function noPost(titles: string[]) {
  const key = 'deals.bundle.errors.noShipping';
  return new AppError(
    400,
    'bad_request',
    key,
    { delivery: key },
    {
      titles: titleList(titles),
      count: titles.length,
    },
  );
}

/** The seller's bundle shipping rule (no row: the highest single shipping cost). */
export async function readRule(q: Query, sellerId: string): Promise<BundleRule> {
  const [row] = await q<{ shipping_amount: number | null }>(
    'select shipping_amount::float8 as shipping_amount from bundle_rules where seller_id = $1',
    [sellerId],
  );
  return { shippingAmount: row?.shipping_amount ?? null };
}

export async function saveRule(q: Query, sellerId: string, rule: BundleRule): Promise<BundleRule> {
  await q(
    `insert into bundle_rules (seller_id, shipping_amount) values ($1, $2)
     on conflict (seller_id) do update set shipping_amount = excluded.shipping_amount,
       updated_at = now()`,
    [sellerId, rule.shippingAmount],
  );
  return readRule(q, sellerId);
}

/**
 * The books of a bundle for `buyerId`, checked as the offer needs them: known and reachable (not
 * hidden, the seller active, not behind a block: 404, as a missing book, platform/reach.ts), no
 * duplicate, not the buyer's own, one seller, for sale, one currency. `available` false keeps unavailable books (a quote shows them)
 * instead of refusing them (409).
 */
async function bundleListings(
  q: Query,
  buyerId: string,
  ids: readonly string[],
  opts: { allowUnavailable: boolean },
): Promise<BundleListingRow[]> {
  // An id that is no UUID (NUL bytes included) is a missing book, never a database error.
  if (ids.some((id) => !isUuid(id))) throw listingNotFound();
  if (new Set(ids.map((id) => id.toLowerCase())).size !== ids.length)
    throw field('deals.bundle.errors.duplicate');
  const rows = await q<BundleListingRow>(
    `select l.id::text, l.user_id as seller_id, u.display_name as seller_name, l.status,
       l.listing_type, l.hidden_at is not null as hidden, l.currency, l.title, l.author,
       coalesce(l.cover_url, case when b.cover_url is not null then '/api/covers/' || b.id end)
         as cover_url,
       l.price::float8 as price, l.shipping_cost::float8 as shipping_cost
     from book_listings l join users u on u.id = l.user_id left join books b on b.id = l.book_id
     where l.id = any($1::uuid[])`,
    [ids],
  );
  if (rows.length !== ids.length || !(await mayReachListings(q, buyerId, ids)))
    throw listingNotFound();
  // The buyer's order, the first book first (the offer's listing_id).
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ordered = ids.map((id) => byId.get(id.toLowerCase())!);
  const sellers = new Set(ordered.map((r) => r.seller_id));
  if (sellers.has(buyerId)) throw field('chatApi.errors.offerOwnListing');
  if (sellers.size > 1) throw field('deals.bundle.errors.severalSellers');
  if (ordered.some((r) => r.listing_type === 'trade')) throw field('chatApi.errors.notForSale');
  if (new Set(ordered.map((r) => r.currency)).size > 1)
    throw field('deals.bundle.errors.currencies');
  if (!opts.allowUnavailable && ordered.some((r) => r.status !== 'available'))
    throw listingUnavailable();
  return ordered;
}

const toCosts = (rows: BundleListingRow[]) =>
  rows.map((r) => ({ title: r.title, shippingCost: r.shipping_cost }));

/** What a bundle being built costs: its books, the seller's rule and the one shipping cost. */
export async function quoteBundle(
  q: Query,
  buyerId: string,
  ids: readonly string[],
): Promise<BundleQuote> {
  const rows = await bundleListings(q, buyerId, ids, { allowUnavailable: true });
  const rule = await readRule(q, rows[0].seller_id);
  const cents = rows.reduce((sum, r) => sum + Math.round((r.price ?? 0) * 100), 0);
  return {
    seller: { id: rows[0].seller_id, displayName: rows[0].seller_name },
    listings: rows.map((r) => ({
      id: r.id,
      title: r.title,
      author: r.author,
      coverUrl: r.cover_url,
      price: r.price,
      shippingCost: r.shipping_cost,
      available: r.status === 'available',
    })),
    currency: rows[0].currency,
    rule,
    booksTotal: cents / 100,
    shipping: bundleShipping(
      rule,
      rows.map((r) => r.shipping_cost),
    ),
    handOnly: bundleHandOnly(rule, toCosts(rows)).map((r) => r.title),
  };
}

/**
 * Bundle offers: the buyer's one offer for several books of one seller, in their direct
 * conversation (found or created, as contacting a seller does), after a card of each book.
 */
export function bundleActions(ctx: ChatContext) {
  const { deps, database, log, query, publish, publishMessage, afterCommit } = ctx;
  return {
    quote: (buyerId: string, ids: readonly string[]) => quoteBundle(query, buyerId, ids),

    async offer(
      buyerId: string,
      input: BundleOfferInput,
    ): Promise<{ roomId: string; message: ChatMessage }> {
      const rows = await bundleListings(query, buyerId, input.listingIds, {
        allowUnavailable: false,
      });
      const sellerId = rows[0].seller_id;
      const ids = rows.map((r) => r.id);
      const rule = await readRule(query, sellerId);
      const shipping = bundleShipping(
        rule,
        rows.map((r) => r.shipping_cost),
      );
      // By post when the seller's rule gives one shipping cost (their bundle price, or every
      // book ships), unless the buyer collects them; otherwise handed over.
      const delivery = input.delivery ?? (shipping === null ? 'hand' : 'post');
      if (delivery === 'post' && shipping === null)
        throw noPost(bundleHandOnly(rule, toCosts(rows)).map((r) => r.title));
      let result: {
        roomId: string;
        changed: boolean;
        offerId: string;
        cards: string[];
        offerMessageId: string;
        replyId: string | null;
      };
      try {
        result = await inTransaction(database, async (q) => {
          // Again on locked rows: a suspension, a hide or a block since the first checks; and a
          // seller on holiday takes no offer until back (409 with the last day away).
          await lockReach(q, buyerId, sellerId, ids);
          await refuseWhileAway(q, sellerId, deps.now());
          // The buyer's own open offer on one of the books comes first: withdraw it or wait.
          const [pending] = await q(
            `select 1 from offers o join offer_listings ol on ol.offer_id = o.id
             where o.buyer_id = $1 and o.status = 'pending' and ol.listing_id = any($2::uuid[])
             limit 1`,
            [buyerId, ids],
          );
          if (pending) throw conflict('deals.bundle.errors.offerPending');
          const { roomId, changed } = await directRoom(q, buyerId, sellerId, ids[0]);
          const [offer] = await q<{ id: string }>(
            `insert into offers (listing_id, buyer_id, seller_id, room_id, amount, currency,
               shipping_amount, bundle)
             values ($1, $2, $3, $4, $5, $6, $7, true) returning id::text`,
            [
              ids[0],
              buyerId,
              sellerId,
              roomId,
              input.amount,
              rows[0].currency,
              delivery === 'post' ? shipping : null,
            ],
          );
          await q(
            `insert into offer_listings (offer_id, listing_id)
             select $1, unnest($2::uuid[])`,
            [offer.id, ids],
          );
          const cards: string[] = [];
          for (const id of ids) {
            const card = await insertMessage(q, {
              roomId,
              senderId: buyerId,
              type: 'listing',
              listingId: id,
            });
            if (!card) throw listingNotFound();
            cards.push(card);
          }
          const offerMessageId = await insertMessage(q, {
            roomId,
            senderId: buyerId,
            type: 'offer',
            listingId: ids[0],
            offerId: offer.id,
          });
          if (!offerMessageId) throw listingNotFound();
          // A seller on holiday answers once per conversation and holiday (profiles/holiday.ts).
          const away = await claimHolidayReply(q, roomId, sellerId, deps.now());
          const replyId = away
            ? await insertMessage(q, { roomId, senderId: sellerId, type: 'system', content: away })
            : null;
          return { roomId, changed, offerId: offer.id, cards, offerMessageId, replyId };
        });
      } catch (err) {
        // The partial unique indexes: one open bundle offer per buyer and seller, one open offer
        // per buyer and book; a race between two sends ends here too.
        if (sqlState(err) === '23505') throw conflict('deals.bundle.errors.offerPending');
        if (err instanceof AppError) throw err;
        log.error({ err }, 'bundle offer not saved');
        throw new AppError(500, 'internal', 'chatApi.errors.sendFailed');
      }
      const { roomId } = result;
      if (result.changed) await publish([buyerId, sellerId], { type: 'chat.room', roomId });
      for (const card of result.cards) await publishMessage(roomId, card);
      const message = await publishMessage(roomId, result.offerMessageId);
      afterCommit(roomId, message);
      if (result.replyId) await publishMessage(roomId, result.replyId);
      if (deps.notifications) {
        // The seller's notification names the first book and how many more.
        const notices = await offerNotices(query, [result.offerId], buyerId);
        for (const n of notices)
          if (n.data && typeof n.data.title === 'string')
            n.data = { ...n.data, title: `${n.data.title} (+${ids.length - 1})` };
        await deps.notifications.notify(notices);
      }
      return { roomId, message };
    },
  };
}
