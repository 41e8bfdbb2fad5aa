import type { FastifyInstance } from 'fastify';

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
 * Bounded (least recently used out first); failures are not kept.
 */
export class PublicReadCache {
  private entries = new Map<string, Entry>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 1_000,
  ) {}

  get(key: string, load: () => Promise<string>): Promise<string> {
    if (this.ttlMs <= 0) return load();
    const t = this.now();
    const entries = this.entries;
    const hit = entries.get(key);
    if (hit && t - hit.at < 2 * this.ttlMs) {
      entries.delete(key);
      entries.set(key, hit);
      if (t - hit.at >= this.ttlMs && !hit.refreshing) {
        hit.refreshing = true;
        load().then(
          (body) => {
            if (entries.get(key) === hit) entries.set(key, { at: t, body: Promise.resolve(body) });
          },
          () => {
            hit.refreshing = false;
          },
        );
      }
      return hit.body;
    }
    const body = load();
    const entry: Entry = { at: t, body };
    entries.set(key, entry);
    body.catch(() => {
      if (entries.get(key) === entry) entries.delete(key);
    });
    if (entries.size > this.maxEntries) entries.delete(entries.keys().next().value as string);
    return body;
  }

  /** Forgets every answer, and the computations under way (they finish for their own callers). */
  clear(): void {
    if (this.entries.size) this.entries = new Map();
  }
}

interface Entry {
  at: number;
  body: Promise<string>;
  refreshing?: boolean;
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
