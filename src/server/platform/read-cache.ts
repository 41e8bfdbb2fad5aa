import type { FastifyInstance } from 'fastify';
import { TtlCache } from './ttl-cache';

/**
 * The micro-cache of anonymous public reads: the serialized answer of a read that many visitors
 * ask for in the same moment (the library's first page, a popular search), kept for `ttlMs`.
 * - Only for requests without a session (the route decides; `request.user` is null), whose
 *   answer is the same for every visitor.
 * - One computation per key at a time: identical requests arriving while it runs wait for it
 *   (a burst of the same search costs one search).
 * - Fresh for `ttlMs`; asked for in the following `ttlMs`, an answer is served once more while one
 *   recomputation runs in the background and replaces it (stale while revalidating): a read asked
 *   for steadily is never computed on a request's path, and each key costs at most one
 *   computation per `ttlMs` per process however often it is asked. Older: computed on the request.
 * - Any state-changing request (POST, PUT, PATCH, DELETE) handled by this process empties it
 *   before its answer leaves, and computations started before that are not kept: after a write
 *   answers, no read served by this process predates it. Writes made elsewhere (another server
 *   process, a script) show within `ttlMs`, at most twice that for a key being recomputed.
 * Bounded (least recently used out first); failures are not kept. The cache itself is the
 * server's one TtlCache (platform/ttl-cache.ts).
 */
export class PublicReadCache extends TtlCache<string> {
  constructor(
    readonly ttlMs: number,
    now: () => number = Date.now,
    maxEntries = 1_000,
  ) {
    // Fresh for ttlMs, then served once more while it is recomputed, until 2 × ttlMs.
    super(2 * ttlMs, now, maxEntries, ttlMs);
  }

  override get(key: string, load: () => Promise<string>): Promise<string> {
    return this.ttlMs <= 0 ? load() : super.get(key, load);
  }

  private readonly linked: { clear(): void }[] = [];

  /**
   * Another cache of public answers that must follow this one's rule: emptied with it by every
   * state-changing request this process handles (the library's 30 s shelves, for one).
   */
  alsoClear(cache: { clear(): void }): void {
    this.linked.push(cache);
  }

  override clear(): void {
    super.clear();
    for (const cache of this.linked) cache.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    publicReads: PublicReadCache;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Decorates the app with the cache and empties it on every state-changing request. */
export function registerPublicReadCache(app: FastifyInstance, cache: PublicReadCache): void {
  app.decorate('publicReads', cache);
  // onSend: before the answer leaves, whatever its status (a failed write may have changed
  // something too, and emptying costs nothing).
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (UNSAFE.has(request.method)) cache.clear();
    done(null, payload);
  });
}
