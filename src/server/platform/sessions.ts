import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { sql } from '../db/sql';
import type { SessionResolver, SessionUser } from './auth';
import { SESSION_ABSOLUTE_MS, type Auth } from './auth/instance';
import { forwardCookies, toFetchHeaders } from './auth/http';

/** better-auth's session cookie(s) as sent, signature included: the cache's key. */
const SESSION_COOKIE = /(?:^|;)\s*((?:__Secure-)?[\w.-]*session_token)=([^;]*)/g;

export function sessionCookieKey(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  let key = '';
  for (const [, name, value] of cookieHeader.matchAll(SESSION_COOKIE)) key += `${name}=${value};`;
  return key || null;
}

interface CacheEntry {
  member: SessionUser;
  userId: string;
  sessionId: string;
  /** Monotonic ms after which the entry is resolved again. */
  until: number;
  /** Wall-clock ms (the resolver's `now`) when the session stops being valid anyway. */
  validUntil: number;
}

export interface SessionCacheOptions {
  /** How long a resolved session is reused without asking the database (default 3 s). */
  ttlMs?: number;
  /** Entries kept at most; the oldest go first (default 20,000). */
  maxEntries?: number;
  /** Monotonic clock (tests move it). */
  clock?: () => number;
}

/**
 * Resolved sessions by their signed cookie, for a few seconds, so that a member sending many
 * messages costs one session lookup every few seconds instead of one per request. A cookie that is
 * not byte-for-byte the one resolved (forged, rotated, another signature) is another key and goes
 * to better-auth. Entries go at once when their session ends (`evictSessions`, fed by the
 * session-ended event of every process) or their member is cut off (`evictUsers`), and a lookup
 * that was under way when that happened is not kept. While the events cannot arrive (`live` says
 * false: the LISTEN connection is down) nothing is served from the cache.
 */
export class SessionCache {
  private entries = new Map<string, CacheEntry>();
  private bySession = new Map<string, Set<string>>();
  private byUser = new Map<string, Set<string>>();
  /** When each session or member was last evicted (monotonic ms), for lookups under way. */
  private endedSessions = new Map<string, number>();
  private endedUsers = new Map<string, number>();
  private clearedAt = -Infinity;
  /** The next sweep of expired entries, while there are entries. */
  private sweepTimer: NodeJS.Timeout | undefined;
  readonly ttlMs: number;
  private readonly maxEntries: number;
  readonly clock: () => number;
  /** Whether session-ended events reach this process now; without them the cache is off. */
  live: () => boolean = () => true;

  constructor(opts: SessionCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 3000;
    this.maxEntries = opts.maxEntries ?? 20_000;
    this.clock = opts.clock ?? (() => performance.now());
  }

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): SessionUser | null {
    if (!this.live()) return null;
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.until <= this.clock() || entry.validUntil <= now) {
      this.remove(key);
      return null;
    }
    return entry.member;
  }

  /** The member behind a cookie if cached (whatever its age): for eviction by member. */
  peekUser(key: string): string | null {
    return this.entries.get(key)?.userId ?? null;
  }

  /** Keeps a resolution that started at `startedAt` unless its session or member ended since. */
  set(key: string, member: SessionUser, validUntil: number, startedAt: number): void {
    if (!this.live() || !member.session) return;
    const sessionId = member.session.id;
    if (
      this.clearedAt >= startedAt ||
      (this.endedSessions.get(sessionId) ?? -Infinity) >= startedAt ||
      (this.endedUsers.get(member.id) ?? -Infinity) >= startedAt
    ) {
      return;
    }
    this.remove(key);
    this.entries.set(key, {
      member,
      userId: member.id,
      sessionId,
      until: this.clock() + this.ttlMs,
      validUntil,
    });
    index(this.bySession, sessionId, key);
    index(this.byUser, member.id, key);
    while (this.entries.size > this.maxEntries) this.remove(this.entries.keys().next().value!);
    this.scheduleSweep();
  }

  /**
   * Expired entries go within a TTL or two even when nobody asks for them again: the handshake
   * of every socket resolves its session once, and without this the cache would keep ten thousand
   * members' session objects for as long as the server runs (docs/decisions/0081). Entries are in
   * the order they were set (a set moves its key last), so the sweep stops at the first live one.
   * One unref'd timer, and none while the cache is empty.
   */
  private scheduleSweep() {
    if (this.sweepTimer || !this.entries.size) return;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined;
      this.sweep();
      this.scheduleSweep();
    }, this.ttlMs);
    this.sweepTimer.unref?.();
  }

  /** Removes the entries whose time ran out (the oldest first). */
  sweep(): void {
    const now = this.clock();
    for (const [key, entry] of this.entries) {
      if (entry.until > now) break;
      this.remove(key);
    }
  }

  evictSessions(sessionIds: Iterable<string>): void {
    const at = this.clock();
    for (const id of sessionIds) {
      remember(this.endedSessions, id, at);
      for (const key of [...(this.bySession.get(id) ?? [])]) this.remove(key);
    }
  }

  evictUsers(userIds: Iterable<string>): void {
    const at = this.clock();
    for (const id of userIds) {
      remember(this.endedUsers, id, at);
      for (const key of [...(this.byUser.get(id) ?? [])]) this.remove(key);
    }
  }

  clear(): void {
    this.clearedAt = this.clock();
    this.entries.clear();
    this.bySession.clear();
    this.byUser.clear();
  }

  private remove(key: string) {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    unindex(this.bySession, entry.sessionId, key);
    unindex(this.byUser, entry.userId, key);
  }
}

function index(map: Map<string, Set<string>>, id: string, key: string) {
  let keys = map.get(id);
  if (!keys) map.set(id, (keys = new Set()));
  keys.add(key);
}

function unindex(map: Map<string, Set<string>>, id: string, key: string) {
  const keys = map.get(id);
  keys?.delete(key);
  if (keys?.size === 0) map.delete(id);
}

/** Eviction times are needed only while a lookup may still be under way: a minute is plenty. */
function remember(map: Map<string, number>, id: string, at: number) {
  map.delete(id);
  map.set(id, at);
  if (map.size > 50_000) {
    for (const [old, when] of map) {
      if (when > at - 60_000 && map.size <= 50_000) break;
      map.delete(old);
    }
  }
}

/** Routes after which the member's cached sessions are dropped at once (they may end sessions). */
const SESSION_WRITES = /^\/api\/(?:auth|me|accounts)(?:\/|\?|$)/;

/**
 * Resolves the signed-in member behind a request through better-auth: the signed session cookie,
 * looked up in the sessions table (idle expiry 7 days, extended at most daily while used). A
 * session older than 30 days is revoked whatever its activity. No valid session: anonymous.
 * With a cache, a cookie resolved in the last few seconds is not looked up again (see
 * SessionCache); without one, every request asks better-auth.
 */
export function createSessionResolver(opts: {
  auth: Auth;
  database: Database;
  now?: () => Date;
  cache?: SessionCache;
}): SessionResolver {
  const { auth, database, cache } = opts;
  const now = opts.now ?? (() => new Date());

  async function lookup(request: FastifyRequest, reply: Parameters<SessionResolver['resolve']>[1]) {
    const { headers, response } = await auth.api.getSession({
      headers: toFetchHeaders(request),
      returnHeaders: true,
    });
    forwardCookies(headers, reply);
    if (!response) return null;
    const { session, user } = response;
    // Suspended: the suspension deleted the sessions; this closes any race with it.
    const status = (user as { accountStatus?: string }).accountStatus;
    if (status !== undefined && status !== 'active') return null;
    const createdAt = new Date(session.createdAt).getTime();
    if (now().getTime() - createdAt > SESSION_ABSOLUTE_MS) {
      await database.query(sql`delete from sessions where id = ${session.id}`);
      return null;
    }
    const member: SessionUser = {
      id: user.id,
      email: user.email,
      displayName: user.name,
      username: (user as { username?: string | null }).username ?? null,
      emailVerified: user.emailVerified,
      ...(((user as { termsAcceptedAt?: Date | string | null }).termsAcceptedAt ?? null) === null
        ? { needsTerms: true }
        : {}),
      session: { id: session.id, expiresAt: new Date(session.expiresAt) },
    };
    const validUntil = Math.min(
      new Date(session.expiresAt).getTime(),
      createdAt + SESSION_ABSOLUTE_MS,
    );
    return { member, validUntil };
  }

  return {
    async resolve(request, reply) {
      // better-auth's own routes read the session themselves.
      if (request.url.startsWith('/api/auth/')) return null;
      const key = sessionCookieKey(request.headers.cookie);
      if (!key) return null;
      if (!cache) return (await lookup(request, reply))?.member ?? null;
      const hit = cache.get(key, now().getTime());
      if (hit) return hit;
      const startedAt = cache.clock();
      const found = await lookup(request, reply);
      if (!found) return null;
      cache.set(key, found.member, found.validUntil, startedAt);
      return found.member;
    },
    afterWrite(request) {
      if (!cache || !SESSION_WRITES.test(request.url)) return;
      const key = sessionCookieKey(request.headers.cookie);
      const userId = request.user?.id ?? (key ? cache.peekUser(key) : null);
      if (userId) cache.evictUsers([userId]);
    },
  };
}

/**
 * A session cache fed by the realtime service's session-ended news (every process hears of
 * every ended session through it). Without that news (a fake realtime in tests, scripts) there
 * is no cache: every request asks better-auth.
 */
export function sessionCacheFor(
  realtime: {
    onSessionsEnded?: (
      handler: (ended: { sessions: string[]; users: string[] } | 'all') => void,
    ) => void;
    sessionNewsLive?: () => boolean;
  },
  opts: SessionCacheOptions = {},
): SessionCache | undefined {
  const { onSessionsEnded, sessionNewsLive } = realtime;
  if (!onSessionsEnded || !sessionNewsLive) return undefined;
  const cache = new SessionCache(opts);
  cache.live = () => sessionNewsLive.call(realtime);
  onSessionsEnded.call(realtime, (ended) => {
    if (ended === 'all') return cache.clear();
    cache.evictSessions(ended.sessions);
    cache.evictUsers(ended.users);
  });
  return cache;
}
