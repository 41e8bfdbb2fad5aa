import type { Database } from '../../db/client';

export interface PresenceOptions {
  database: Database;
  processId: string;
  /** A row not refreshed for this long belongs to a dead process (ms). */
  ttlMs: number;
  /**
   * Changes of a batch window are written together (default 50 ms): one statement for the members
   * who came online, one for those who left, whatever their number. A member who comes and goes
   * within one window (a reload, a flapping network) writes nothing and changes nothing.
   */
  batchMs?: number;
  /** Called where a member's presence changed anywhere (first socket, last socket). */
  onChange: (userId: string, online: boolean) => Promise<void>;
  /** Called once per batch with every change of it, before onChange for each. */
  onChanges?: (changes: PresenceChange[]) => Promise<void>;
  onError: (err: unknown) => void;
}

export interface PresenceChange {
  userId: string;
  online: boolean;
}

/**
 * Presence across processes in the realtime_presence table: a row (member, process) while the
 * process holds at least one of the member's sockets. Writes happen only on a member's first and
 * last local socket, gathered in short batches and written one batch at a time, so an open racing
 * a close cannot leave a wrong row and ten thousand members arriving cost a few statements.
 */
export function createPresence(opts: PresenceOptions) {
  const { database, processId } = opts;
  const ttl = Math.max(1, Math.round(opts.ttlMs));
  const batchMs = opts.batchMs ?? 50;
  /** Members with a local socket, as the sockets say. */
  const wanted = new Set<string>();
  /** Members whose row this process believes is written. */
  const written = new Set<string>();
  /** Members whose presence may have to be written in the next batch. */
  let dirty = new Set<string>();
  /** Members of the batch being written now. */
  let writing = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  /** The next batch: resolved once it is written. */
  let next: { promise: Promise<void>; resolve: () => void } | null = null;
  /** Handlers still running for written batches. */
  const telling = new Set<Promise<void>>();
  /** The batch being written (one at a time). */
  let current: Promise<void> = Promise.resolve();

  async function write(userIds: Set<string>): Promise<PresenceChange[]> {
    const online = [...userIds].filter((id) => wanted.has(id) && !written.has(id));
    const offline = [...userIds].filter((id) => !wanted.has(id) && written.has(id));
    const changes: PresenceChange[] = [];
    if (online.length) {
      const rows = await database.query<{ user_id: string }>(
        `with mine as (
           insert into realtime_presence (user_id, process_id)
           select u, $2 from unnest($1::text[]) as u
           on conflict (user_id, process_id) do update set seen_at = now()
         )
         select u as user_id from unnest($1::text[]) as u
         where not exists (
           select 1 from realtime_presence
           where user_id = u and process_id <> $2
             and seen_at > now() - $3::int * interval '1 millisecond'
         )`,
        [online, processId, ttl],
      );
      for (const id of online) written.add(id);
      for (const { user_id } of rows) changes.push({ userId: user_id, online: true });
    }
    if (offline.length) {
      const rows = await database.query<{ user_id: string }>(
        `with gone as (
           delete from realtime_presence where process_id = $2 and user_id = any($1::text[])
         ),
         left_everywhere as (
           select u from unnest($1::text[]) as u
           where not exists (
             select 1 from realtime_presence
             where user_id = u and process_id <> $2
               and seen_at > now() - $3::int * interval '1 millisecond'
           )
         )
         update users set last_seen_at = now()
         where id in (
           -- Rows locked in one order, so two processes' batches never deadlock.
           select id from users where id in (select u from left_everywhere) order by id for update
         )
         returning id as user_id`,
        [offline, processId, ttl],
      );
      for (const id of offline) written.delete(id);
      for (const { user_id } of rows) changes.push({ userId: user_id, online: false });
    }
    return changes;
  }

  async function tell(changes: PresenceChange[]) {
    if (!changes.length) return;
    await opts.onChanges?.(changes).catch(opts.onError);
    for (const { userId, online } of changes) {
      await opts.onChange(userId, online).catch(opts.onError);
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = next;
    next = null;
    if (!batch) return current;
    const run = current.then(async () => {
      writing = dirty;
      dirty = new Set();
      try {
        const changes = await write(writing);
        // Handlers run beside the next batches, never in their way.
        const told = tell(changes).finally(() => telling.delete(told));
        telling.add(told);
      } catch (err) {
        opts.onError(err);
        // A deadlock or serialization failure is transient: the batch is written again.
        const code = (err as { code?: string } | null)?.code;
        if (code === '40P01' || code === '40001') for (const id of writing) void sync(id);
      } finally {
        writing = new Set();
        batch.resolve();
      }
    });
    current = run;
    return run;
  }

  function sync(userId: string): Promise<void> {
    dirty.add(userId);
    if (!next) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      next = { promise, resolve };
      timer = setTimeout(() => void flush(), batchMs);
      timer.unref?.();
    }
    return next.promise;
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
        if (dirty.has(userId) || writing.has(userId)) continue; // a write is under way; it decides
        if (inTable.has(userId)) written.add(userId);
        else written.delete(userId);
        if (wanted.has(userId) !== inTable.has(userId)) void sync(userId);
      }
    },

    /** last_seen_at of connected members, so it stays true if this process dies. */
    async touchLastSeen(): Promise<void> {
      await database.query(
        `update users set last_seen_at = now()
         where id in (
           select id from users
           where id in (select user_id from realtime_presence where process_id = $1)
           order by id for update
         )`,
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
      while (next || writing.size || telling.size) {
        await flush();
        await Promise.all([...telling]);
      }
    },
  };
}

export type Presence = ReturnType<typeof createPresence>;
