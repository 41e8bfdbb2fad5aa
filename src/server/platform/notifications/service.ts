import { NOTIFICATIONS_PAGE_MAX, NOTIFICATIONS_PAGE_SIZE } from '@shared/notifications';
import type { Database } from '../../db/client';
import type { Mailer } from '../mail';
import type { Realtime } from '../realtime';
import { badRequest, notFound } from '../errors';
import { createDigest, digestTimer, DIGEST_WINDOW_HOURS } from './digest';
import { readSwitches } from './switches';
import { forgetBetween, mayHear, mayHearSql } from './audience';
import type { NotificationData, NotificationTypeDef, Notifications, NotifyInput } from './types';
import { isUuid } from '@shared/schemas/common';
import { decodeCursor, encodeCursor, parseData, ROW_COLUMNS, type Row } from './rows';
import { toIso } from '../../db/rows';

/** `data` is kept short: ids and a few facts, never a copy of the subject. */
export const MAX_DATA_BYTES = 1024;
export { NOTIFICATIONS_PAGE_SIZE, NOTIFICATIONS_PAGE_MAX };

export interface NotificationItem {
  id: string;
  type: string;
  actor: { id: string; displayName: string; avatarUrl: string | null } | null;
  actorCount: number;
  subject: { type: string; id: string };
  data: NotificationData;
  link: string;
  read: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NotificationsPage {
  items: NotificationItem[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

export interface TypeSetting {
  type: string;
  inApp: boolean;
  email: boolean;
}

export interface NotificationSettings {
  /** The profile's `email_notifications`: when off, no notification e-mail is sent at all. */
  emailNotifications: boolean;
  types: TypeSetting[];
}

export type SettingsPatch = Record<string, { inApp?: boolean; email?: boolean }>;

/** The service behind `deps.notifications`: the contract plus what the centre's routes use. */
export interface NotificationService extends Notifications {
  /** The defined types, in definition order. */
  types(): NotificationTypeDef[];
  list(userId: string, opts?: { cursor?: string; limit?: number }): Promise<NotificationsPage>;
  unreadCount(userId: string): Promise<number>;
  /** Marks one of the member's notifications read; 404 for another member's or a missing one. */
  markRead(userId: string, id: string): Promise<number>;
  markAllRead(userId: string): Promise<number>;
  settings(userId: string): Promise<NotificationSettings>;
  updateSettings(userId: string, patch: SettingsPatch): Promise<NotificationSettings>;
  /** Sends the digests that are due now (the timer calls it every minute); returns how many. */
  runDigests(): Promise<number>;
  /** Starts the digest timer (buildApp does). */
  start(): void;
  /** Stops the timer and waits for a digest run in progress. */
  close(): Promise<void>;
}

export interface NotificationsOptions {
  database: Database;
  realtime: Realtime;
  mailer: Mailer;
  /** Absolute links in e-mails. */
  publicUrl: string;
  now?: () => Date;
  log: {
    warn: (obj: object, msg: string) => void;
    error: (obj: object, msg: string) => void;
  };
  /** How often the digest timer looks for due digests (DIGEST_INTERVAL_MS by default). */
  digestIntervalMs?: number;
}

/** The digest timer looks for due digests every minute. */
export const DIGEST_INTERVAL_MS = 60_000;

export function createNotifications(opts: NotificationsOptions): NotificationService {
  const { database, realtime, log } = opts;
  const now = opts.now ?? (() => new Date());
  const defs = new Map<string, NotificationTypeDef>();
  /** The types that reach across a block (`acrossBlocks`), for the audience rule's SQL. */
  const acrossTypes = () => [...defs.values()].filter((d) => d.acrossBlocks).map((d) => d.type);

  /** Of these rows, the ones whose type is defined and whose subject the recipient may see. */
  async function visibleRows<T extends { type: string; subject_id: string }>(
    recipientId: string,
    rows: T[],
  ): Promise<T[]> {
    const byType = new Map<string, Set<string>>();
    for (const r of rows) {
      if (!defs.has(r.type)) continue;
      const ids = byType.get(r.type) ?? new Set<string>();
      ids.add(r.subject_id);
      byType.set(r.type, ids);
    }
    const allowed = new Map<string, Set<string> | 'all'>();
    await Promise.all(
      [...byType].map(async ([type, ids]) => {
        const def = defs.get(type)!;
        allowed.set(type, def.visible ? await def.visible(recipientId, [...ids]) : 'all');
      }),
    );
    return rows.filter((r) => {
      const a = allowed.get(r.type);
      return a === 'all' || (a !== undefined && a.has(r.subject_id));
    });
  }

  const linkOf = (recipientId: string, r: Row) =>
    defs.get(r.type)!.link({
      subjectType: r.subject_type,
      subjectId: r.subject_id,
      data: parseData(r.data),
      recipientId,
    });

  const toItem = (recipientId: string, r: Row): NotificationItem => ({
    id: r.id,
    type: r.type,
    actor: r.actor_id
      ? {
          id: r.actor_id,
          displayName: (r.actor_name ?? '').trim() || r.actor_username || '',
          avatarUrl: r.actor_avatar,
        }
      : null,
    actorCount: r.actor_count,
    subject: { type: r.subject_type, id: r.subject_id },
    data: parseData(r.data),
    link: linkOf(recipientId, r),
    read: r.read_at !== null,
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  });

  async function unreadCount(userId: string): Promise<number> {
    const rows = await database.query<{ type: string; subject_id: string; n: number }>(
      `select type, subject_id, count(*)::int as n from notifications
       where recipient_id = $1 and read_at is null and in_app
         and ${mayHearSql('$1', 'actor_id', 'type = any($2::text[])')}
       group by type, subject_id`,
      [userId, acrossTypes()],
    );
    const visible = await visibleRows(userId, rows);
    return visible.reduce((sum, r) => sum + r.n, 0);
  }

  async function push(userId: string, type: 'notification.new' | 'notification.read') {
    try {
      await realtime.toUsers([userId], { type, unread: await unreadCount(userId) });
    } catch (err) {
      log.warn({ err, userId }, `${type} could not be published`);
    }
  }

  /** Stores one notification; true when the member will see it in the app. */
  async function store(n: NotifyInput): Promise<boolean> {
    const def = defs.get(n.type);
    if (!def) {
      log.warn({ type: n.type }, 'notification of an undefined type ignored');
      return false;
    }
    if (n.actorId && n.actorId === n.recipientId) return false;
    const data = JSON.stringify(n.data ?? {});
    if (Buffer.byteLength(data) > MAX_DATA_BYTES)
      throw new Error(`notification data over ${MAX_DATA_BYTES} bytes (${n.type})`);
    const switches = await readSwitches(database, def, n.recipientId);
    if (!switches) return false;
    const { inApp } = switches;
    // A type that sends its own e-mail at once (`ownEmail`) does not wait for the digest.
    const email = switches.email && !def.ownEmail;
    if (!inApp && !email) return false;
    const at = now().toISOString();
    const values = [
      n.recipientId,
      n.type,
      n.actorId ?? null,
      n.subject.type,
      n.subject.id,
      data,
      n.onceKey ?? null,
      n.groupKey ?? null,
      inApp,
      email,
      at,
    ];
    // Only while the recipient may hear of the actor (audience.ts), in the insert itself.
    const insert = `insert into notifications (recipient_id, type, actor_id, subject_type,
        subject_id, data, once_key, group_key, in_app, email_pending, created_at, updated_at)
      select $1::text, $2::text, $3::text, $4::text, $5::text, $6::jsonb, $7::text, $8::text,
        $9::boolean, $10::boolean, $11::timestamptz, $11::timestamptz
      where ${mayHearSql('$1', '$3', def.acrossBlocks ? 'true' : undefined)}`;
    let stored: { id: string }[];
    if (n.onceKey) {
      stored = await database.query(
        `${insert} on conflict (recipient_id, type, once_key) where once_key is not null
         do nothing returning id`,
        values,
      );
    } else if (n.groupKey) {
      // One statement, so two actors at once both count (the conflict re-checks the row).
      stored = await database.query(
        `${insert} on conflict (recipient_id, type, group_key)
           where group_key is not null and read_at is null
         do update set
           actor_count = notifications.actor_count +
             case when notifications.actor_id is not distinct from excluded.actor_id then 0 else 1 end,
           actor_id = excluded.actor_id,
           subject_type = excluded.subject_type,
           subject_id = excluded.subject_id,
           data = excluded.data,
           in_app = notifications.in_app or excluded.in_app,
           email_pending = notifications.email_pending or excluded.email_pending,
           updated_at = excluded.updated_at
         returning id`,
        values,
      );
    } else {
      stored = await database.query(`${insert} returning id`, values);
    }
    if (stored.length === 0) return false;
    // A block committed while the insert ran: the row goes (the block's own delete may not
    // have seen it yet), and nothing is pushed.
    const across = { acrossBlocks: def.acrossBlocks };
    if (n.actorId && !(await mayHear(database, n.recipientId, n.actorId, across))) {
      await database.query('delete from notifications where id = $1', [stored[0].id]);
      return false;
    }
    return inApp;
  }

  const digest = createDigest({
    database,
    mailer: opts.mailer,
    publicUrl: opts.publicUrl,
    now,
    log,
    defs,
    visibleRows,
    linkOf,
  });

  const timer = digestTimer(digest.run, log, 'notification digests');

  return {
    defineType(def) {
      // A later definition replaces an earlier one (an app rebuilt on the same service).
      defs.set(def.type, def);
    },

    async notify(input) {
      const list: readonly NotifyInput[] = Array.isArray(input) ? input : [input as NotifyInput];
      const shown = new Set<string>();
      for (const n of list) {
        try {
          if (await store(n)) shown.add(n.recipientId);
        } catch (err) {
          log.error({ err, type: n.type, recipientId: n.recipientId }, 'notification not stored');
        }
      }
      await Promise.all([...shown].map((id) => push(id, 'notification.new')));
    },

    async removeForSubject(subjectType, subjectIds) {
      const ids = typeof subjectIds === 'string' ? [subjectIds] : [...subjectIds];
      if (ids.length === 0) return;
      try {
        await database.query(
          'delete from notifications where subject_type = $1 and subject_id = any($2::text[])',
          [subjectType, ids],
        );
      } catch (err) {
        log.error({ err, subjectType }, 'notifications not removed');
      }
    },

    async forgetBetween(a, b) {
      await forgetBetween(database, a, b, acrossTypes()).catch((err: unknown) =>
        log.error({ err }, 'notifications between blocked members not removed'),
      );
    },

    async emailWanted(recipientId, type) {
      const def = defs.get(type);
      return def ? ((await readSwitches(database, def, recipientId))?.email ?? false) : false;
    },

    types: () => [...defs.values()],

    async list(userId, { cursor, limit = NOTIFICATIONS_PAGE_SIZE } = {}) {
      let after = cursor ? decodeCursor(cursor) : null;
      const items: NotificationItem[] = [];
      const last: Row[] = [];
      const batch = limit + 1;
      // Keyset pages over the index; rows whose subject is no longer visible are skipped, so a
      // page may need a second batch to fill.
      for (;;) {
        const rows = await database.query<Row>(
          `select ${ROW_COLUMNS} from notifications n left join users u on u.id = n.actor_id
           where n.recipient_id = $1 and n.in_app
             and ${mayHearSql('$1', 'n.actor_id', 'n.type = any($5::text[])')}
             and ($2::timestamptz is null or (n.updated_at, n.id) < ($2::timestamptz, $3::uuid))
           order by n.updated_at desc, n.id desc
           limit $4`,
          [userId, after?.at ?? null, after?.id ?? null, batch, acrossTypes()],
        );
        for (const r of await visibleRows(userId, rows)) {
          items.push(toItem(userId, r));
          last.push(r);
        }
        if (items.length > limit || rows.length < batch) break;
        const end = rows[rows.length - 1];
        after = { at: toIso(end.updated_at), id: end.id };
      }
      const more = items.length > limit;
      return {
        items: items.slice(0, limit),
        nextCursor: more ? encodeCursor(last[limit - 1]) : null,
      };
    },

    unreadCount,

    async markRead(userId, id) {
      const rows = isUuid(id)
        ? await database.query(
            `update notifications set read_at = coalesce(read_at, $3)
             where id = $1 and recipient_id = $2 and in_app returning id`,
            [id, userId, now().toISOString()],
          )
        : [];
      if (rows.length === 0) throw notFound('notifications.errors.notFound');
      await push(userId, 'notification.read');
      return unreadCount(userId);
    },

    async markAllRead(userId) {
      await database.query(
        `update notifications set read_at = $2
         where recipient_id = $1 and read_at is null and in_app`,
        [userId, now().toISOString()],
      );
      await push(userId, 'notification.read');
      return unreadCount(userId);
    },

    async settings(userId) {
      const [user] = await database.query<{ email_notifications: boolean }>(
        'select email_notifications from users where id = $1',
        [userId],
      );
      const rows = await database.query<{ type: string; in_app: boolean; email: boolean }>(
        'select type, in_app, email from notification_settings where user_id = $1',
        [userId],
      );
      const chosen = new Map(rows.map((r) => [r.type, r]));
      return {
        emailNotifications: user?.email_notifications ?? false,
        types: [...defs.values()].map((d) => ({
          type: d.type,
          inApp: chosen.get(d.type)?.in_app ?? d.defaults.inApp,
          email: chosen.get(d.type)?.email ?? d.defaults.email,
        })),
      };
    },

    async updateSettings(userId, patch) {
      const unknown = Object.keys(patch).filter((type) => !defs.has(type));
      if (unknown.length > 0)
        throw badRequest(
          'errors.validation',
          Object.fromEntries(unknown.map((k) => [k, 'notifications.errors.unknownType'])),
        );
      for (const [type, change] of Object.entries(patch)) {
        if (change.inApp === undefined && change.email === undefined) continue;
        const def = defs.get(type)!;
        // Only the switches sent change; the other keeps its stored value (or the default).
        await database.query(
          `insert into notification_settings (user_id, type, in_app, email, updated_at)
           values ($1, $2, coalesce($3::boolean, $5::boolean), coalesce($4::boolean, $6::boolean), $7)
           on conflict (user_id, type) do update set
             in_app = coalesce($3::boolean, notification_settings.in_app),
             email = coalesce($4::boolean, notification_settings.email),
             updated_at = excluded.updated_at`,
          [
            userId,
            type,
            change.inApp ?? null,
            change.email ?? null,
            def.defaults.inApp,
            def.defaults.email,
            now().toISOString(),
          ],
        );
      }
      return this.settings(userId);
    },

    runDigests: timer.run,

    start() {
      timer.start(opts.digestIntervalMs ?? DIGEST_INTERVAL_MS);
    },

    close: timer.close,
  };
}

export { DIGEST_WINDOW_HOURS };
