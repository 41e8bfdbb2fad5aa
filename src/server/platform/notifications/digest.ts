import { greetingName } from '../mail';
import { isLanguage, type Language } from '@shared/constants';
import { notificationText as wordsOf } from '@shared/notificationText';
import type { Database } from '../../db/client';
import { layoutEmail, type Mailer, type MailMessage } from '../mail';
import { fixedT, t } from '../i18n';
import type { NotificationData, NotificationTypeDef } from './types';
import { mayHearSql } from './audience';

/** At most one digest e-mail per member in this window. */
export const DIGEST_WINDOW_HOURS = 1;
/** Items listed in one digest; the rest are counted ("and 3 more"). */
export const DIGEST_MAX_ITEMS = 20;
/** Members handled per run (the next run, a minute later, takes the rest). */
const MEMBERS_PER_RUN = 200;

interface DigestRow {
  id: string;
  type: string;
  actor_id: string | null;
  actor_count: number;
  subject_type: string;
  subject_id: string;
  data: NotificationData | string;
  actor_name: string | null;
  actor_username: string | null;
}

/**
 * The text of one notification, as the web client renders it (`@shared/notificationText`): the
 * same words, plural forms and context, in the recipient's language.
 */
export function notificationText(
  lang: Language,
  n: { type: string; actorName: string | null; actorCount: number; data: NotificationData },
): string {
  return wordsOf(fixedT(lang), n, lang);
}

/** The words of one kind of digest e-mail: `<words>.subject`, `.intro`, `.more`, `.action`, `.note`. */
export type DigestWords = 'notifications.email' | 'savedSearches.email';

/**
 * A digest e-mail: its lines (each a text and its link), "and N more", a button to the page that
 * lists everything, and where to turn these e-mails off, in the recipient's language.
 */
export function digestEmail(
  lang: Language,
  recipient: { email: string; name: string },
  lines: { text: string; link: string }[],
  more: number,
  links: { action: string; settings: string },
  words: DigestWords = 'notifications.email',
): MailMessage {
  const count = lines.length + more;
  const quote = [
    ...lines.map((l) => `• ${l.text}\n  ${l.link}`),
    ...(more > 0 ? [t(lang, `${words}.more`, { count: more })] : []),
  ].join('\n');
  return layoutEmail({
    lang,
    to: recipient.email,
    subject: t(lang, `${words}.subject`, { count }),
    greeting: t(lang, 'auth.email.greeting', {
      name: greetingName(recipient.name, recipient.email),
    }),
    intro: t(lang, `${words}.intro`, { count }),
    quote,
    action: { label: t(lang, `${words}.action`), link: links.action },
    note: t(lang, `${words}.note`, { link: links.settings }),
    signature: t(lang, 'auth.email.signature'),
  });
}

/**
 * Sends a member a digest e-mail whose button opens `page` of their profile (the list of
 * everything) and whose note links their notification settings. `about`: the members it names
 * (deleting one of their accounts deletes it from the outbox).
 */
export function sendDigestEmail(
  mail: { mailer: Mailer; publicUrl: string },
  recipient: { id: string; email: string; name: string; lang: Language },
  digest: {
    lines: { text: string; link: string }[];
    more: number;
    page: 'notifications' | 'saved-searches';
    words?: DigestWords;
    about: string[];
  },
): Promise<void> {
  const base = `${mail.publicUrl}/profile/${encodeURIComponent(recipient.id)}`;
  return mail.mailer.send({
    ...digestEmail(
      recipient.lang,
      recipient,
      digest.lines,
      digest.more,
      { action: `${base}/${digest.page}`, settings: `${base}/settings#notifications` },
      digest.words,
    ),
    about: digest.about,
  });
}

/**
 * One kind of digest e-mail (the hourly notifications, the daily saved-search finds) as the
 * claim-gather-send loop of `runDigest` drives it. A member's period is claimed by one conditional
 * upsert, so any number of processes (or a restart) send a member at most one per period; a run
 * that sends nothing, or fails, gives the period back and leaves what waits waiting.
 */
export interface DigestKind<Claim> {
  /** Names the kind in the log. */
  name: string;
  /** The members (one page) with something waiting at `at` whose period is free. */
  due(at: string): Promise<string[]>;
  /** Claims the member's period at `at`; null when another run has it. */
  claim(userId: string, at: string): Promise<Claim | null>;
  /** Gives the claimed period back. */
  release(userId: string, claim: Claim): Promise<unknown>;
  /** Gathers what is still worth telling and sends it; true when an e-mail went out. */
  send(userId: string, at: string): Promise<boolean>;
}

/** One run of a digest kind at `at`: how many e-mails went out. */
export async function runDigest<Claim>(
  kind: DigestKind<Claim>,
  at: string,
  log: { error: (obj: object, msg: string) => void },
): Promise<number> {
  let sent = 0;
  for (const userId of await kind.due(at)) {
    const claim = await kind.claim(userId, at);
    if (!claim) continue;
    try {
      if (await kind.send(userId, at)) {
        sent++;
        continue;
      }
    } catch (err) {
      log.error({ err, userId }, `${kind.name} not sent`);
    }
    await kind.release(userId, claim).catch(() => {});
  }
  return sent;
}

/**
 * A digest's timer in one process: `run` now and every `everyMs` (from `start`), one run at a
 * time (a call during a run shares it), stopped by `close`, which waits for a run in progress.
 */
export function digestTimer(
  run: () => Promise<number>,
  log: { error: (obj: object, msg: string) => void },
  name: string,
) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  const once = () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  const tick = () => void once().catch((err) => log.error({ err }, `${name} failed`));
  return {
    run: once,
    start(everyMs: number, opts: { now?: boolean } = {}) {
      if (timer || everyMs <= 0) return;
      timer = setInterval(tick, everyMs);
      timer.unref();
      if (opts.now) tick();
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}

/**
 * The hourly digest. A notification stored with `email_pending` waits for it; a run finds the
 * members with pending notifications whose last digest is an hour old, claims each member with
 * one conditional upsert (two processes cannot both win it), and sends what is still worth
 * telling: types whose e-mail switch is on, subjects still visible, actors the member may still
 * hear of (audience.ts, checked again at send time), while the profile's `email_notifications`
 * is on. A failed send gives the claim back and keeps the rows pending.
 */
export function createDigest(deps: {
  database: Database;
  mailer: Mailer;
  publicUrl: string;
  now: () => Date;
  log: { error: (obj: object, msg: string) => void };
  defs: Map<string, NotificationTypeDef>;
  visibleRows<T extends { type: string; subject_id: string }>(
    recipientId: string,
    rows: T[],
  ): Promise<T[]>;
  linkOf(
    recipientId: string,
    r: { type: string; subject_type: string; subject_id: string; data: NotificationData | string },
  ): string;
}) {
  const { database, mailer, publicUrl, now, log, defs } = deps;
  const window = `interval '${DIGEST_WINDOW_HOURS} hour'`;

  const kind: DigestKind<{ at: string; prev: string | null }> = {
    name: 'notification digest',

    async due(at) {
      const rows = await database.query<{ recipient_id: string }>(
        `select distinct n.recipient_id from notifications n
         left join notification_digests d on d.user_id = n.recipient_id
         where n.email_pending and n.updated_at <= $1
           and (d.sent_at is null or d.sent_at <= $1::timestamptz - ${window})
         limit ${MEMBERS_PER_RUN}`,
        [at],
      );
      return rows.map((r) => r.recipient_id);
    },

    async claim(userId, at) {
      const [claim] = await database.query<{ prev: Date | null }>(
        `with prev as (select sent_at from notification_digests where user_id = $1)
         insert into notification_digests (user_id, sent_at) values ($1, $2)
         on conflict (user_id) do update set sent_at = excluded.sent_at
         where notification_digests.sent_at <= excluded.sent_at - ${window}
         returning (select sent_at from prev) as prev`,
        [userId, at],
      );
      if (!claim) return null;
      return { at, prev: claim.prev ? new Date(claim.prev).toISOString() : null };
    },

    release: (userId, { at, prev }) =>
      prev
        ? database.query(
            'update notification_digests set sent_at = $3 where user_id = $1 and sent_at = $2',
            [userId, at, prev],
          )
        : database.query('delete from notification_digests where user_id = $1 and sent_at = $2', [
            userId,
            at,
          ]),

    async send(userId, at) {
      const [user] = await database.query<{
        email: string;
        display_name: string;
        preferred_language: string;
        email_notifications: boolean;
      }>(
        `select email::text as email, display_name, preferred_language, email_notifications
         from users where id = $1`,
        [userId],
      );
      const rows = await database.query<DigestRow>(
        `select n.id, n.type, n.actor_id, n.actor_count, n.subject_type, n.subject_id, n.data,
           u.display_name as actor_name, u.username::text as actor_username
         from notifications n left join users u on u.id = n.actor_id
         where n.recipient_id = $1 and n.email_pending and n.updated_at <= $2
           and ${mayHearSql('$1', 'n.actor_id', 'n.type = any($3::text[])')}
         order by n.updated_at desc, n.id desc`,
        [userId, at, [...defs.values()].filter((d) => d.acrossBlocks).map((d) => d.type)],
      );
      const settings = await database.query<{ type: string; email: boolean }>(
        'select type, email from notification_settings where user_id = $1',
        [userId],
      );
      const emailOn = new Map(settings.map((s) => [s.type, s.email]));
      const wanted =
        user?.email_notifications === true
          ? rows.filter((r) => {
              const def = defs.get(r.type);
              return def !== undefined && (emailOn.get(r.type) ?? def.defaults.email);
            })
          : [];
      const send = await deps.visibleRows(userId, wanted);
      if (send.length > 0 && user) {
        const lang: Language = isLanguage(user.preferred_language) ? user.preferred_language : 'it';
        const lines = send.slice(0, DIGEST_MAX_ITEMS).map((r) => {
          const data =
            typeof r.data === 'string' ? (JSON.parse(r.data) as NotificationData) : r.data;
          return {
            text: notificationText(lang, {
              type: r.type,
              actorName: (r.actor_name ?? '').trim() || r.actor_username,
              actorCount: r.actor_count,
              data,
            }),
            link: publicUrl + deps.linkOf(userId, r),
          };
        });
        await sendDigestEmail(
          { mailer, publicUrl },
          { id: userId, email: user.email, name: user.display_name, lang },
          {
            lines,
            more: send.length - lines.length,
            page: 'notifications',
            about: send.slice(0, DIGEST_MAX_ITEMS).flatMap((r) => (r.actor_id ? [r.actor_id] : [])),
          },
        );
      }
      // Told (or not to be told): these rows no longer wait. Rows folded since `at` still do.
      // Nothing worth an e-mail: the hour is given back (runDigest).
      await database.query(
        `update notifications set email_pending = false
         where recipient_id = $1 and email_pending and updated_at <= $2`,
        [userId, at],
      );
      return send.length > 0 && !!user;
    },
  };

  return {
    run: (): Promise<number> => runDigest(kind, now().toISOString(), log),
  };
}
