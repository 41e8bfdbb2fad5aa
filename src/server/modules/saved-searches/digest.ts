import { greetingName } from '../../platform/mail';
import { isLanguage, type Language } from '@shared/constants';
import { formatMoney } from '@shared/money';
import type { Database } from '../../db/client';
import { layoutEmail, type Mailer } from '../../platform/mail';
import { t } from '../../platform/i18n';
import type { Notifications } from '../../platform/notifications/types';
import { blockedBetween, visibleListing } from '../../platform/moderation';
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

export function digestEmail(
  lang: Language,
  recipient: { email: string; name: string },
  rows: MatchRow[],
  more: number,
  links: { publicUrl: string; searches: string; settings: string },
) {
  const count = rows.length + more;
  const quote = [
    ...rows.map((r) => {
      const price = r.price === null ? '' : ` — ${formatMoney(r.price, r.currency, lang)}`;
      return `• ${t(lang, 'savedSearches.email.line', { title: r.title, author: r.author, search: r.search_name })}${price}\n  ${links.publicUrl}/library/book/${r.listing_id}`;
    }),
    ...(more > 0 ? [t(lang, 'savedSearches.email.more', { count: more })] : []),
  ].join('\n');
  return layoutEmail({
    lang,
    to: recipient.email,
    subject: t(lang, 'savedSearches.email.subject', { count }),
    greeting: t(lang, 'auth.email.greeting', {
      name: greetingName(recipient.name, recipient.email),
    }),
    intro: t(lang, 'savedSearches.email.intro', { count }),
    quote,
    action: { label: t(lang, 'savedSearches.email.action'), link: links.searches },
    note: t(lang, 'savedSearches.email.note', { link: links.settings }),
    signature: t(lang, 'auth.email.signature'),
  });
}

/**
 * The daily e-mail of new saved-search matches. A match waits (emailed_at null) until a run on or
 * after DIGEST_HOUR_UTC finds its member without a digest today; the day is claimed by one
 * conditional upsert on saved_search_digests, so any number of processes (or a restart) send a
 * member at most one a day. What is sent: the matches since the last digest whose listing is still
 * available and visible, in the member's language, while their e-mail switches (the type's, and
 * the profile's `email_notifications`) are on. A failed send gives the day back, the matches wait.
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

  async function release(userId: string, day: string, prev: { on: string; at: string } | null) {
    await (
      prev
        ? database.query(
            `update saved_search_digests set sent_on = $3, sent_at = $4
             where user_id = $1 and sent_on = $2`,
            [userId, day, prev.on, prev.at],
          )
        : database.query('delete from saved_search_digests where user_id = $1 and sent_on = $2', [
            userId,
            day,
          ])
    ).catch(() => {});
  }

  const markSent = (userId: string, at: string) =>
    database.query(
      `update saved_search_matches set emailed_at = $2
       where user_id = $1 and emailed_at is null and matched_at <= $2`,
      [userId, at],
    );

  async function forMember(userId: string, day: string, at: string): Promise<boolean> {
    const [claim] = await database.query<{ prev_on: string | null; prev_at: Date | string | null }>(
      `with prev as (select sent_on, sent_at from saved_search_digests where user_id = $1)
       insert into saved_search_digests (user_id, sent_on, sent_at) values ($1, $2, $3)
       on conflict (user_id) do update set sent_on = excluded.sent_on, sent_at = excluded.sent_at
       where saved_search_digests.sent_on < excluded.sent_on
       returning (select sent_on::text from prev) as prev_on, (select sent_at from prev) as prev_at`,
      [userId, day, at],
    );
    if (!claim) return false;
    const prev =
      claim.prev_on && claim.prev_at
        ? { on: claim.prev_on, at: new Date(claim.prev_at).toISOString() }
        : null;
    try {
      if (!(await notifications.emailWanted(userId, SAVED_SEARCH_MATCH))) {
        // Not wanted by e-mail: these matches are not kept for a later digest; the day is free.
        await markSent(userId, at);
        await release(userId, day, prev);
        return false;
      }
      const [user] = await database.query<{
        email: string;
        display_name: string;
        preferred_language: string;
      }>('select email::text as email, display_name, preferred_language from users where id = $1', [
        userId,
      ]);
      const rows = await database.query<MatchRow>(
        `select m.listing_id, l.user_id as seller_id, m.search_name, l.title, l.author, l.price, l.currency
         from saved_search_matches m join book_listings l on l.id = m.listing_id
         where m.user_id = $1 and m.emailed_at is null and m.matched_at <= $2
           and l.status = 'available' and ${visibleListing('l')}
           and not ${blockedBetween('m.user_id', 'l.user_id')}
         order by m.matched_at desc, m.listing_id
         limit ${DIGEST_MAX_ITEMS + 1}`,
        [userId, at],
      );
      if (!user || rows.length === 0) {
        await markSent(userId, at);
        await release(userId, day, prev);
        return false;
      }
      const [{ n }] = await database.query<{ n: number }>(
        `select count(*)::int as n from saved_search_matches m join book_listings l on l.id = m.listing_id
         where m.user_id = $1 and m.emailed_at is null and m.matched_at <= $2
           and l.status = 'available' and ${visibleListing('l')}
           and not ${blockedBetween('m.user_id', 'l.user_id')}`,
        [userId, at],
      );
      const lang: Language = isLanguage(user.preferred_language) ? user.preferred_language : 'it';
      const shown = rows.slice(0, DIGEST_MAX_ITEMS);
      const base = `${publicUrl}/profile/${encodeURIComponent(userId)}`;
      await mailer.send({
        ...digestEmail(
          lang,
          { email: user.email, name: user.display_name },
          shown,
          Math.max(0, n - shown.length),
          {
            publicUrl,
            searches: `${base}/saved-searches`,
            settings: `${base}/settings#notifications`,
          },
        ),
        // The sellers it names: deleting one of their accounts deletes it from the outbox.
        about: [...new Set(shown.map((r) => r.seller_id))],
      });
      await markSent(userId, at);
      return true;
    } catch (err) {
      log.error({ err, userId }, 'saved search digest not sent');
      await release(userId, day, prev);
      return false;
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  const digest = {
    /** Sends the digests due now; how many were sent. */
    run(): Promise<number> {
      running ??= (async () => {
        const date = now();
        if (date.getUTCHours() < DIGEST_HOUR_UTC) return 0;
        const at = date.toISOString();
        const day = at.slice(0, 10);
        const due = await database.query<{ user_id: string }>(
          `select distinct m.user_id from saved_search_matches m
           left join saved_search_digests d on d.user_id = m.user_id
           where m.emailed_at is null and m.matched_at <= $1
             and (d.sent_on is null or d.sent_on < $2::date)
           limit ${MEMBERS_PER_RUN}`,
          [at, day],
        );
        let sent = 0;
        for (const { user_id } of due) if (await forMember(user_id, day, at)) sent++;
        return sent;
      })().finally(() => {
        running = undefined;
      });
      return running;
    },

    /** Looks for due digests now and every ten minutes (stopped by close). */
    start(): void {
      if (timer) return;
      const tick = () =>
        void digest.run().catch((err) => log.error({ err }, 'saved search digests failed'));
      timer = setInterval(tick, CHECK_EVERY_MS);
      timer.unref();
      tick();
    },

    async close(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
  return digest;
}
