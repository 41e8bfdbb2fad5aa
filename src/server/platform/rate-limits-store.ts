import { createHash } from 'node:crypto';
import type { FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Database } from '../db/client';
import { MemoryCounterStore, type CounterStore, type Window } from './rate-limits';

/**
 * Where rate limits count (docs/decisions/0061). On PostgreSQL every process and machine shares
 * one count per key, in the UNLOGGED table rate_limits (migration 0031): one upsert per counted
 * request. The embedded database is one process, so its counts stay in memory.
 */
export function createCounterStore(database: Database): CounterStore {
  return database.kind === 'postgres'
    ? new PostgresCounterStore(database)
    : new MemoryCounterStore();
}

/**
 * Keys come from requests (an e-mail, an address, a member): every one is stored as its hash, so
 * the table holds no personal data (a deleted account leaves nothing readable behind) and long or
 * odd keys (NUL bytes, 100 KB) take the same 71 characters.
 */
export const storedKey = (key: string) =>
  `sha256:${createHash('sha256').update(key).digest('hex')}`;

/**
 * PostgresCounterStore.add as SQL to put in a CTE, for a write that counts its own attempt in the
 * same statement (a chat message: docs/decisions/0065). Arguments are SQL placeholders: the
 * stored key (`storedKey`), the time and the window in epoch milliseconds, and an optional
 * condition (nothing is counted when it is false). Returns `count, reset_at`. It uses the table on
 * the embedded database too (whose other limits count in memory): one row per key, rewritten.
 */
export function countAttemptSql(p: {
  key: string;
  now: string;
  windowMs: string;
  when?: string;
}): string {
  return `insert into rate_limits as r (key, count, reset_at)
    select ${p.key}, 1, ${p.now}::bigint + ${p.windowMs}::bigint${p.when ? ` where ${p.when}` : ''}
    on conflict (key) do update set
      count = case when r.reset_at <= ${p.now}::bigint then 1 else r.count + 1 end,
      reset_at = case when r.reset_at <= ${p.now}::bigint then excluded.reset_at else r.reset_at end
    returning count, reset_at`;
}

const SWEEP_EVERY_MS = 60_000;

export class PostgresCounterStore implements CounterStore {
  private nextSweep = 0;

  constructor(private readonly database: Database) {}

  async add(key: string, by: number, windowMs: number, now: number): Promise<Window> {
    this.sweep(now);
    const [row] = await this.database.query<{ count: number; reset_at: number | string }>(
      `insert into rate_limits as r (key, count, reset_at) values ($1, $2, $3::bigint + $4::bigint)
       on conflict (key) do update set
         count = case when r.reset_at <= $3::bigint then excluded.count else r.count + excluded.count end,
         reset_at = case when r.reset_at <= $3::bigint then excluded.reset_at else r.reset_at end
       returning count, reset_at`,
      [storedKey(key), by, Math.trunc(now), Math.trunc(windowMs)],
    );
    return { count: row.count, resetAt: Number(row.reset_at) };
  }

  async get(key: string, now: number): Promise<Window | undefined> {
    const [row] = await this.database.query<{ count: number; reset_at: number | string }>(
      'select count, reset_at from rate_limits where key = $1 and reset_at > $2::bigint',
      [storedKey(key), Math.trunc(now)],
    );
    return row && { count: row.count, resetAt: Number(row.reset_at) };
  }

  async delete(key: string): Promise<void> {
    await this.database.query('delete from rate_limits where key = $1', [storedKey(key)]);
  }

  /** Ended windows go now and then (each process sweeps at most once a minute; any may). */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    this.database
      .query('delete from rate_limits where reset_at <= $1::bigint', [Math.trunc(now)])
      .catch(() => {});
  }
}

/** What the plugin passes to `child` at run time (its types say less). */
interface StoreOptions {
  routeInfo?: { method?: string | string[]; url?: string };
}
type Incr = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A store for @fastify/rate-limit over a CounterStore: each route counts under its own prefix
 * (method and path, as the plugin's own stores do), the key being the client's address or member.
 */
export function fastifyRateLimitStore(
  counters: CounterStore,
  now: () => number = Date.now,
): FastifyRateLimitStoreCtor {
  return class SharedRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = 'http:',
    ) {}

    /** The plugin calls incr(key, callback, timeWindow, max); its types leave out the last two. */
    incr(key: string, callback: Incr, timeWindow = 60_000): void {
      const at = now();
      counters.add(`${this.prefix}${key}`, 1, timeWindow, at).then(
        (window) =>
          callback(null, { current: window.count, ttl: Math.max(0, window.resetAt - at) }),
        (err: Error) => callback(err),
      );
    }

    child(routeOptions: object) {
      const options = routeOptions as StoreOptions;
      const method = [options.routeInfo?.method ?? ''].flat().join(',');
      return new SharedRateLimitStore(options, `http:${method} ${options.routeInfo?.url ?? ''}:`);
    }
  };
}
