import type { Database } from '../../db/client';

export interface PresenceOptions {
  database: Database;
  processId: string;
  /** A row not refreshed for this long belongs to a dead process (ms). */
  ttlMs: number;
  /** Called where a member's presence changed anywhere (first socket, last socket). */
  onChange: (userId: string, online: boolean) => Promise<void>;
  onError: (err: unknown) => void;
}

/**
 * Presence across processes in the realtime_presence table: a row (member, process) while the
 * process holds at least one of the member's sockets. Writes happen only on a member's first and
 * last local socket, serialised per member so an open racing a close cannot leave a wrong row.
 */
export function createPresence(opts: PresenceOptions) {
  const { database, processId } = opts;
  const ttl = Math.max(1, Math.round(opts.ttlMs));
  /** Members with a local socket, as the sockets say. */
  const wanted = new Set<string>();
  /** Members whose row this process believes is written. */
  const written = new Set<string>();
  const chains = new Map<string, Promise<void>>();

  async function reconcile(userId: string): Promise<void> {
    const want = wanted.has(userId);
    if (want === written.has(userId)) return;
    if (want) {
      const [row] = await database.query<{ elsewhere: boolean }>(
        `with mine as (
           insert into realtime_presence (user_id, process_id) values ($1, $2)
           on conflict (user_id, process_id) do update set seen_at = now()
         )
         select exists (
           select 1 from realtime_presence
           where user_id = $1 and process_id <> $2
             and seen_at > now() - $3::int * interval '1 millisecond'
         ) as elsewhere`,
        [userId, processId, ttl],
      );
      written.add(userId);
      if (!row?.elsewhere) await opts.onChange(userId, true);
    } else {
      const [row] = await database.query<{ offline: boolean }>(
        `with gone as (
           delete from realtime_presence where user_id = $1 and process_id = $2
         ),
         elsewhere as (
           select 1 from realtime_presence
           where user_id = $1 and process_id <> $2
             and seen_at > now() - $3::int * interval '1 millisecond'
         ),
         seen as (
           update users set last_seen_at = now()
           where id = $1 and not exists (select 1 from elsewhere)
           returning id
         )
         select exists (select 1 from seen) as offline`,
        [userId, processId, ttl],
      );
      written.delete(userId);
      if (row?.offline) await opts.onChange(userId, false);
    }
  }

  function sync(userId: string): Promise<void> {
    const previous = chains.get(userId) ?? Promise.resolve();
    const next = previous
      .then(() => reconcile(userId))
      .catch(opts.onError)
      .finally(() => {
        if (chains.get(userId) === next) chains.delete(userId);
      });
    chains.set(userId, next);
    return next;
  }

  return {
    connected(userId: string) {
      wanted.add(userId);
      return sync(userId);
    },
    disconnected(userId: string) {
      wanted.delete(userId);
      return sync(userId);
    },

    /**
     * Keeps this process's rows alive, and repairs what a failed write or a peer's expiry left
     * wrong: a member with a socket here and no row gets one, a row without sockets goes.
     */
    async refresh(): Promise<void> {
      const rows = await database.query<{ user_id: string }>(
        'update realtime_presence set seen_at = now() where process_id = $1 returning user_id',
        [processId],
      );
      const inTable = new Set(rows.map((r) => r.user_id));
      for (const userId of new Set([...wanted, ...written, ...inTable])) {
        if (chains.has(userId)) continue; // a write is under way; it decides
        if (inTable.has(userId)) written.add(userId);
        else written.delete(userId);
        if (wanted.has(userId) !== inTable.has(userId)) void sync(userId);
      }
    },

    /** last_seen_at of connected members, so it stays true if this process dies. */
    async touchLastSeen(): Promise<void> {
      await database.query(
        `update users set last_seen_at = now()
         where id in (select user_id from realtime_presence where process_id = $1)`,
        [processId],
      );
    },

    /**
     * Removes rows of dead processes; members left with no live row anywhere go offline here.
     * Their last_seen_at is the last refresh of the dead process (touchLastSeen).
     */
    async expire(): Promise<void> {
      const rows = await database.query<{ user_id: string }>(
        `with gone as (
           delete from realtime_presence
           where seen_at <= now() - $1::int * interval '1 millisecond'
           returning user_id
         )
         select distinct g.user_id from gone g
         where not exists (
           select 1 from realtime_presence p
           where p.user_id = g.user_id and p.process_id <> $2
             and p.seen_at > now() - $1::int * interval '1 millisecond'
         )`,
        [ttl, processId],
      );
      for (const { user_id } of rows) {
        if (!wanted.has(user_id)) await opts.onChange(user_id, false).catch(opts.onError);
      }
    },

    async isOnline(userId: string): Promise<boolean> {
      const [row] = await database.query<{ online: boolean }>(
        `select exists (
           select 1 from realtime_presence
           where user_id = $1 and seen_at > now() - $2::int * interval '1 millisecond'
         ) as online`,
        [userId, ttl],
      );
      return Boolean(row?.online);
    },

    async onlineAmong(userIds: readonly string[]): Promise<Set<string>> {
      if (!userIds.length) return new Set();
      const rows = await database.query<{ user_id: string }>(
        `select distinct user_id from realtime_presence
         where user_id = any($1::text[]) and seen_at > now() - $2::int * interval '1 millisecond'`,
        [[...new Set(userIds)], ttl],
      );
      return new Set(rows.map((r) => r.user_id));
    },

    /** Every pending write done: used on close after every socket is gone. */
    async settle(): Promise<void> {
      while (chains.size) await Promise.all([...chains.values()]);
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
