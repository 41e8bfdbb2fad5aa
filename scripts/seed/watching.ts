import type { SeedStep } from './types';
import { inTransaction } from '../../src/server/db/tx';
import { createListingChanges } from '../../src/server/platform/listing-changes';
import { directRoom, insertMessage } from '../../src/server/modules/chats';
import { claimHolidayReply } from '../../src/server/modules/profiles';
import { createWatchAlerts, defineWatchingTypes } from '../../src/server/modules/watching';
import { memberIds, seedLog, seedNotificationCentre } from './alerts';

/** Members who watch listings of others (their watched page is not empty). */
const WATCHERS = ['emily_reads', 'sofia_ricci', 'marco_rossi'];
const WATCHES_EACH = 3;
/** A seller on holiday: their listings are out of the library until the day after. */
export const ON_HOLIDAY = 'dan_hughes';
const HOLIDAY_DAYS = 10;
/** Who wrote to the seller on holiday about a listing, and got the automatic reply. */
const WROTE_TO_AWAY = 'emily_reads';

/**
 * Demo watched listings and a seller on holiday (issue 22 items 4 and 6). Watchers watch the
 * newest available listings of other members, and the first watched listing gets cheaper, told
 * to its watchers as the app tells them (the listing-changed hook and the watch alerts). The
 * seller on holiday is away for HOLIDAY_DAYS from the day of the seed, with an automatic reply
 * of their own, which answered a member who wrote about one of their listings. Running it again
 * adds nothing (watches are unique; the price drops once; the holiday row is one per member and
 * answers a conversation once).
 */
export const seedWatching: SeedStep = async (ctx) => {
  const { database } = ctx;
  const idOf = memberIds(ctx);
  let watched = 0;
  for (const username of WATCHERS) {
    const userId = idOf(username);
    if (!userId) continue;
    const rows = await database.query(
      `insert into listing_watches (user_id, listing_id)
       select $1, l.id from book_listings l
       where l.user_id <> $1 and l.status = 'available' and l.hidden_at is null
         -- Once: on a later run the newest books differ (deals seeded after reserve some).
         and not exists (select 1 from listing_watches w where w.user_id = $1)
       order by l.created_at desc, l.id limit $2
       on conflict do nothing returning listing_id`,
      [userId, WATCHES_EACH],
    );
    watched += rows.length;
  }
  const dropped = await dropAWatchedPrice(ctx);

  const away = idOf(ON_HOLIDAY);
  let replied = false;
  if (away) {
    const backAt = new Date(Date.now() + (HOLIDAY_DAYS + 1) * 24 * 60 * 60 * 1000);
    backAt.setUTCHours(0, 0, 0, 0);
    await database.query(
      `insert into member_holidays (user_id, away_until, auto_reply) values ($1, $2, $3)
       on conflict (user_id) do nothing`,
      [away, backAt, 'Travelling until the end of the month: I will ship when I am back!'],
    );
    const buyer = idOf(WROTE_TO_AWAY);
    if (buyer) replied = await writeToAway(ctx, buyer, away);
  }
  ctx.log(
    `watching: ${watched} watches added${dropped ? ', a watched price dropped' : ''}; ${ON_HOLIDAY} on holiday${replied ? ', answering a conversation' : ''}`,
  );
};

/** The newest watched listing with a price gets 10 % cheaper, once: its watchers are told. */
async function dropAWatchedPrice(ctx: Parameters<SeedStep>[0]): Promise<boolean> {
  const { database } = ctx;
  const [told] = await database.query(
    `select 1 from notifications where type = 'watch.changed' limit 1`,
  );
  if (told) return false;
  const [listing] = await database.query<{ id: string }>(
    `select l.id from book_listings l join listing_watches w on w.listing_id = l.id
     where l.status = 'available' and l.price >= 4
     order by w.created_at desc, l.id limit 1`,
  );
  if (!listing) return false;
  const notifications = seedNotificationCentre(ctx);
  defineWatchingTypes(notifications, database);
  const changes = createListingChanges({
    query: (text, params) => database.query(text, params),
    log: seedLog(ctx),
  });
  changes.onListingChanged(createWatchAlerts({ database, notifications }));
  const changed = await changes.track(listing.id);
  await database.query(
    'update book_listings set price = floor(price * 0.9), updated_at = now() where id = $1',
    [listing.id],
  );
  changed();
  await changes.settled();
  await notifications.close();
  return true;
}

/**
 * A member writes to the seller on holiday about their newest listing: the listing's card, a
 * question, and the automatic reply, as the contact route stores them (once per holiday).
 */
async function writeToAway(
  ctx: Parameters<SeedStep>[0],
  buyer: string,
  seller: string,
): Promise<boolean> {
  const [listing] = await ctx.database.query<{ id: string }>(
    `select id from book_listings where user_id = $1 and status = 'available'
     order by created_at desc, id limit 1`,
    [seller],
  );
  if (!listing) return false;
  return inTransaction(ctx.database, async (q) => {
    const { roomId } = await directRoom(q, buyer, seller, listing.id);
    const reply = await claimHolidayReply(q, roomId, seller, new Date());
    if (!reply) return false;
    await insertMessage(q, { roomId, senderId: buyer, type: 'listing', listingId: listing.id });
    await insertMessage(q, {
      roomId,
      senderId: buyer,
      content: 'Hi Dan, is this still available? I could pick it up in Edinburgh.',
    });
    await insertMessage(q, { roomId, senderId: seller, type: 'system', content: reply });
    return true;
  });
}
