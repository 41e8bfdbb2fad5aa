import type { Module } from '../../platform/module';
import { idParam, memberRoutes } from '../../platform/route-presets';
import { currentUser } from '../../platform/auth';
import { errorSchema, validationFailed } from '../../platform/errors';
import { activeMember } from '../../platform/moderation';
import { scheduleJob } from '../../platform/jobs';
import type { Database } from '../../db/client';
import { inTransaction, type Query } from '../../db/tx';
import type { ListingChanges } from '../../platform/listing-changes';
import {
  holidayEnd,
  holidayInputSchema,
  holidaySchema,
  publicHolidaySchema,
  type Holiday,
} from '@shared/schemas/watching';

/**
 * Holiday mode (issue 22 item 6, docs/watching.md, decision 0069). A seller away until a day:
 * their listings leave the library and the shelves while the member_holidays row exists (the
 * library's SQL and its counts read it), new conversations about their listings get one
 * automatic reply per holiday, and the holiday job ends it once the app's clock passes the day.
 */

/** How often each process looks for holidays that are over (and once at start). */
export const HOLIDAY_JOB_MS = 60_000;

const DAY_MS = 24 * 60 * 60 * 1000;
const lastDay = (backAt: Date) => new Date(backAt.getTime() - DAY_MS).toISOString().slice(0, 10);

type HolidayRow = { away_until: Date; auto_reply: string | null };

function toHoliday(row: HolidayRow | undefined): Holiday {
  if (!row) return { holiday: null };
  const backAt = new Date(row.away_until);
  return {
    holiday: {
      awayUntil: lastDay(backAt),
      backAt: backAt.toISOString(),
      autoReply: row.auto_reply,
    },
  };
}

/**
 * Ends the holidays that are over at `now`: their listings come back (the counts' trigger moves
 * them). One statement: when several processes run it at once, each row is ended by one of them,
 * which alone publishes the return on the listing-changed hook (watchers hear "available again",
 * saved searches match). Returns the members whose holiday ended.
 */
export async function endHolidays(
  database: Pick<Database, 'query'>,
  now: Date,
  listingChanges?: Pick<ListingChanges, 'publishSellers'>,
): Promise<string[]> {
  const rows = await database.query<{ user_id: string }>(
    'delete from member_holidays where away_until <= $1 returning user_id',
    [now],
  );
  const ended = rows.map((r) => r.user_id);
  listingChanges?.publishSellers(ended, (back) => ({ ...back, away: true }));
  return ended;
}

/**
 * Inside the transaction that starts a conversation with `sellerId` in `roomId` (contacting them
 * about a listing, or opening the direct room with them; groups are not answered):
 * the text of the automatic reply when the seller is away and this holiday has not answered in
 * this room yet (claimed here, so a retry or a race sends it once), null otherwise. The text is
 * a code the chat renders (`holiday|<last day>|<seller's words or empty>`): the default words
 * are shown in each reader's language.
 */
export async function claimHolidayReply(
  q: Query,
  roomId: string,
  sellerId: string,
  now: Date,
): Promise<string | null> {
  const [row] = await q<HolidayRow>(
    `with h as (select id, away_until, auto_reply from member_holidays
                where user_id = $1 and away_until > $3 and ${activeMember('user_id')}),
     mark as (insert into holiday_replies (holiday_id, room_id) select id, $2 from h
              on conflict do nothing returning holiday_id)
     select h.away_until, h.auto_reply from h join mark on mark.holiday_id = h.id`,
    [sellerId, roomId, now],
  );
  if (!row) return null;
  return `holiday|${lastDay(new Date(row.away_until))}|${row.auto_reply ?? ''}`;
}

/** How long a process trusts "nobody is on holiday" before asking again (other processes' news). */
export const AWAY_CHECK_MS = 5_000;
const awayKnown = new WeakMap<Database, { any: boolean; at: number }>();

/**
 * Whether any member is on holiday now: asked at most every AWAY_CHECK_MS, and at once after a
 * holiday set here, so that a chat message costs no query while nobody is away (the common case).
 */
export async function anyoneAway(database: Database, now: Date): Promise<boolean> {
  const known = awayKnown.get(database);
  if (known && Date.now() - known.at < AWAY_CHECK_MS) return known.any;
  const [row] = await database.query<{ any: boolean }>(
    'select exists (select 1 from member_holidays where away_until > $1) as any',
    [now],
  );
  awayKnown.set(database, { any: row.any, at: Date.now() });
  return row.any;
}

/**
 * The first message of a conversation during a holiday (issue 22 item 6): for each new message
 * typed into a two-member room (a listing's or a direct one, never a group) whose other member is
 * away, claims that holiday's reply for the room (once per room and holiday, as when contacted)
 * and inserts it. Returns the replies inserted, to publish. Runs after the messages are delivered,
 * off their path; costs nothing while nobody is away.
 */
export async function holidayRepliesTo(
  database: Database,
  messages: readonly { roomId: string; senderId: string | null; type: string }[],
  now: Date,
  insertReply: (q: Query, roomId: string, awayId: string, text: string) => Promise<string | null>,
): Promise<{ roomId: string; messageId: string }[]> {
  const typed = messages.filter((m) => m.type === 'text' && m.senderId);
  if (typed.length === 0 || !(await anyoneAway(database, now))) return [];
  const pairs = await database.query<{ room_id: string; user_id: string }>(
    `select distinct p.room_id::text, p.user_id
     from unnest($1::uuid[], $2::text[]) as m(room_id, sender_id)
     join chat_rooms r on r.id = m.room_id and not r.is_group
     join chat_participants p on p.room_id = m.room_id and p.user_id <> m.sender_id
     join member_holidays h on h.user_id = p.user_id and h.away_until > $3
     where not exists (select 1 from holiday_replies hr
                       where hr.holiday_id = h.id and hr.room_id = m.room_id)`,
    [typed.map((m) => m.roomId), typed.map((m) => m.senderId), now],
  );
  const replies: { roomId: string; messageId: string }[] = [];
  for (const { room_id: roomId, user_id: awayId } of pairs) {
    const id = await inTransaction(database, async (q) => {
      const text = await claimHolidayReply(q, roomId, awayId, now);
      return text ? insertReply(q, roomId, awayId, text) : null;
    });
    if (id) replies.push({ roomId, messageId: id });
  }
  return replies;
}

export const holidayRoutes: Module = async (app, deps) => {
  const { database, now, listingChanges } = deps;
  const { tags, read, write } = memberRoutes(app, 'holiday', 30);
  /** Going away or coming back by hand: the seller's listings leave or return. */
  const trackSeller = async (userId: string) =>
    listingChanges ? listingChanges.trackSellers([userId]) : () => {};

  // The job: once at start and every HOLIDAY_JOB_MS (1 s with the e2e test clock), in every process.
  scheduleJob(app, deps, {
    name: 'holiday',
    everyMs: HOLIDAY_JOB_MS,
    run: (at) => endHolidays(database, at, listingChanges),
  });

  const holidayOf = async (userId: string) =>
    toHoliday(
      (
        await database.query<HolidayRow>(
          'select away_until, auto_reply from member_holidays where user_id = $1 and away_until > $2',
          [userId, now()],
        )
      )[0],
    );

  app.get(
    '/api/me/holiday',
    read({
      summary: 'My holiday: the last day away and my automatic reply (null when not away)',
      response: { 200: holidaySchema, 401: errorSchema },
    }),
    async (request) => holidayOf(currentUser(request).id),
  );

  app.put(
    '/api/me/holiday',
    write({
      summary:
        'Go on holiday until a day (or change it): my listings leave the library and the shelves until then',
      description:
        'awayUntil: YYYY-MM-DD, from tomorrow to 90 days ahead (400 otherwise). autoReply: up to 500 characters, or null for the default words in the buyer’s language. The listings come back at the start of the next day (UTC).',
      body: holidayInputSchema,
      response: { 200: holidaySchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
    }),
    async (request) => {
      const me = currentUser(request).id;
      const end = holidayEnd(request.body.awayUntil, now());
      if (!(end instanceof Date)) throw validationFailed({ awayUntil: end.error });
      const changed = await trackSeller(me);
      // A holiday already running keeps its id: its conversations are not answered twice.
      await database.query(
        `insert into member_holidays (user_id, away_until, auto_reply) values ($1, $2, $3)
         on conflict (user_id) do update set away_until = excluded.away_until,
           auto_reply = excluded.auto_reply`,
        [me, end, request.body.autoReply],
      );
      awayKnown.delete(database);
      changed();
      return holidayOf(me);
    },
  );

  app.delete(
    '/api/me/holiday',
    write({
      summary: 'Back from holiday now: my listings return at once (idempotent)',
      response: { 200: holidaySchema, 401: errorSchema, 429: errorSchema },
    }),
    async (request) => {
      const me = currentUser(request).id;
      const changed = await trackSeller(me);
      await database.query('delete from member_holidays where user_id = $1', [me]);
      changed();
      return { holiday: null };
    },
  );

  app.get(
    '/api/users/:id/holiday',
    {
      schema: {
        tags,
        summary: 'When a seller is back from holiday (null when they are not away)',
        description: 'An unknown or inactive member answers null, as one who is not away.',
        params: idParam('id'),
        response: { 200: publicHolidaySchema },
      },
    },
    async (request) => {
      const [row] = await database.query<{ away_until: Date }>(
        `select h.away_until from member_holidays h
         where h.user_id = $1 and h.away_until > $2 and ${activeMember('h.user_id')}`,
        [request.params.id, now()],
      );
      return { backAt: row ? new Date(row.away_until).toISOString() : null };
    },
  );
};
