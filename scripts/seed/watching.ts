import type { SeedStep } from '../seed-demo';

/** Members who watch listings of others (their watched page is not empty). */
const WATCHERS = ['emily_reads', 'sofia_ricci', 'marco_rossi'];
const WATCHES_EACH = 3;
/** A seller on holiday: their listings are out of the library until the day after. */
export const ON_HOLIDAY = 'dan_hughes';
const HOLIDAY_DAYS = 10;

/**
 * Demo watched listings and a seller on holiday (issue 22 items 4 and 6). Watchers watch the
 * newest available listings of other members; the seller on holiday is away for HOLIDAY_DAYS
 * from the day of the seed, with an automatic reply of their own. Running it again adds nothing
 * (watches are unique; the holiday row is one per member).
 */
export const seedWatching: SeedStep = async (ctx) => {
  const { database } = ctx;
  const byUsername = new Map(ctx.members.map((m) => [m.username, m.id]));
  let watched = 0;
  for (const username of WATCHERS) {
    const userId = byUsername.get(username);
    if (!userId) continue;
    const rows = await database.query(
      `insert into listing_watches (user_id, listing_id)
       select $1, l.id from book_listings l
       where l.user_id <> $1 and l.status = 'available' and l.hidden_at is null
       order by l.created_at desc, l.id limit $2
       on conflict do nothing returning listing_id`,
      [userId, WATCHES_EACH],
    );
    watched += rows.length;
  }
  const away = byUsername.get(ON_HOLIDAY);
  if (away) {
    const backAt = new Date(Date.now() + (HOLIDAY_DAYS + 1) * 24 * 60 * 60 * 1000);
    backAt.setUTCHours(0, 0, 0, 0);
    await database.query(
      `insert into member_holidays (user_id, away_until, auto_reply) values ($1, $2, $3)
       on conflict (user_id) do nothing`,
      [away, backAt, 'Travelling until the end of the month: I will ship when I am back!'],
    );
  }
  ctx.log(`watching: ${watched} watches added; ${ON_HOLIDAY} on holiday`);
};
