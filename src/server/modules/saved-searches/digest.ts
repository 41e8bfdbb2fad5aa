import { isLanguage, type Language } from '@shared/constants';
import { formatMoney } from '@shared/money';
import type { Database } from '../../db/client';
import type { Mailer } from '../../platform/mail';
import { t } from '../../platform/i18n';
import {
  digestTimer,
  sendDigestEmail,
  runDigest,
  type DigestKind,
  type Notifications,
} from '../../platform/notifications';
import { visibleListing } from '../../platform/moderation';
import { mayHearSql } from '../../platform/notifications/audience';
import { SAVED_SEARCH_MATCH } from './alerts';

/** The digest goes out from this hour (UTC) on: 08:00 in Italy in winter, 09:00 in summer. */
export const DIGEST_HOUR_UTC = 7;
/** Books listed in one digest; the rest are counted ("and 3 more"). */
export const DIGEST_MAX_ITEMS = 20;
/** Members handled per run (the next run takes the rest). */
const MEMBERS_PER_RUN = 200;
/** How often each process looks for due digests. */
const CHECK_EVERY_MS = 10 * 60_000;

interface MatchRow {
  listing_id: string;
  seller_id: string;
  search_name: string;
  title: string;
  author: string;
  price: string | number | null;
  currency: string;
}

/** SQL: the member's matches still waiting at $2 whose listing is still there to buy. */
const WAITING = `from saved_search_matches m join book_listings l on l.id = m.listing_id
  where m.user_id = $1 and m.emailed_at is null and m.matched_at <= $2
    and l.status = 'available' and ${visibleListing('l')}
    and ${mayHearSql('m.user_id', 'l.user_id')}`;

/**
 * The daily e-mail of new saved-search matches, one kind of the platform's digest
 * (platform/notifications/digest.ts: claim, gather, send). A match waits (emailed_at null) until
 * a run on or after DIGEST_HOUR_UTC finds its member without a digest today; the day is claimed
 * by one conditional upsert on saved_search_digests, so any number of processes (or a restart)
 * send a member at most one a day. What is sent: the matches since the last digest whose listing
 * is still available and visible, in the member's language, while their e-mail switches (the
 * type's, and the profile's `email_notifications`) are on. A failed send gives the day back, the
 * matches wait.
 */
export function createSavedSearchDigest(deps: {
  database: Database;
  mailer: Mailer;
  notifications: Pick<Notifications, 'emailWanted'>;
  publicUrl: string;
  now: () => Date;
  log: { error: (obj: object, msg: string) => void };
}) {
  const { database, mailer, notifications, publicUrl, now, log } = deps;
  const dayOf = (at: string) => at.slice(0, 10);

  const kind: DigestKind<{ day: string; prev: { on: string; at: string } | null }> = {
    name: 'saved search digest',

    async due(at) {
      if (new Date(at).getUTCHours() < DIGEST_HOUR_UTC) return [];
      const rows = await database.query<{ user_id: string }>(
        `select distinct m.user_id from saved_search_matches m
         left join saved_search_digests d on d.user_id = m.user_id
         where m.emailed_at is null and m.matched_at <= $1
           and (d.sent_on is null or d.sent_on < $2::date)
         limit ${MEMBERS_PER_RUN}`,
        [at, dayOf(at)],
      );
      return rows.map((r) => r.user_id);
    },

    async claim(userId, at) {
      const day = dayOf(at);
      const [claim] = await database.query<{
        prev_on: string | null;
        prev_at: Date | null;
      }>(
        `with prev as (select sent_on, sent_at from saved_search_digests where user_id = $1)
         insert into saved_search_digests (user_id, sent_on, sent_at) values ($1, $2, $3)
         on conflict (user_id) do update set sent_on = excluded.sent_on, sent_at = excluded.sent_at
         where saved_search_digests.sent_on < excluded.sent_on
         returning (select sent_on::text from prev) as prev_on, (select sent_at from prev) as prev_at`,
        [userId, day, at],
      );
      if (!claim) return null;
      const prev =
        claim.prev_on && claim.prev_at
          ? { on: claim.prev_on, at: new Date(claim.prev_at).toISOString() }
          : null;
      return { day, prev };
    },

    release: (userId, { day, prev }) =>
      prev
        ? database.query(
            `update saved_search_digests set sent_on = $3, sent_at = $4
             where user_id = $1 and sent_on = $2`,
            [userId, day, prev.on, prev.at],
          )
        : database.query('delete from saved_search_digests where user_id = $1 and sent_on = $2', [
            userId,
            day,
          ]),

    async send(userId, at) {
      // Not wanted by e-mail, or nothing left to tell: these matches are not kept for a later
      // digest (marked below), and the day is given back (runDigest).
      const sent = (await notifications.emailWanted(userId, SAVED_SEARCH_MATCH))
        ? await sendMatches(userId, at)
        : false;
      await database.query(
        `update saved_search_matches set emailed_at = $2
         where user_id = $1 and emailed_at is null and matched_at <= $2`,
        [userId, at],
      );
      return sent;
    },
  };

  async function sendMatches(userId: string, at: string): Promise<boolean> {
    const [user] = await database.query<{
      email: string;
      display_name: string;
      preferred_language: string;
    }>('select email::text as email, display_name, preferred_language from users where id = $1', [
      userId,
    ]);
    const rows = await database.query<MatchRow>(
      `select m.listing_id, l.user_id as seller_id, m.search_name, l.title, l.author, l.price,
         l.currency ${WAITING}
       order by m.matched_at desc, m.listing_id limit ${DIGEST_MAX_ITEMS}`,
      [userId, at],
    );
    if (!user || rows.length === 0) return false;
    const [{ n }] = await database.query<{ n: number }>(`select count(*)::int as n ${WAITING}`, [
      userId,
      at,
    ]);
    const lang: Language = isLanguage(user.preferred_language) ? user.preferred_language : 'it';
    const lines = rows.map((r) => {
      const price = r.price === null ? '' : ` — ${formatMoney(r.price, r.currency, lang)}`;
      return {
        text: `${t(lang, 'savedSearches.email.line', { title: r.title, author: r.author, search: r.search_name })}${price}`,
        link: `${publicUrl}/library/book/${r.listing_id}`,
      };
    });
    await sendDigestEmail(
      { mailer, publicUrl },
      { id: userId, email: user.email, name: user.display_name, lang },
      {
        lines,
        more: Math.max(0, n - lines.length),
        page: 'saved-searches',
        words: 'savedSearches.email',
        // The sellers it names.
        about: [...new Set(rows.map((r) => r.seller_id))],
      },
    );
    return true;
  }

  const timer = digestTimer(
    () => runDigest(kind, now().toISOString(), log),
    log,
    'saved search digests',
  );
  return {
    /** Sends the digests due now; how many were sent. */
    run: timer.run,
    /** Looks for due digests now and every ten minutes (stopped by close). */
    start: () => timer.start(CHECK_EVERY_MS, { now: true }),
    close: timer.close,
  };
}
