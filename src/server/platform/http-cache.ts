import { createHash } from 'node:crypto';
import { constants as zlib } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import compress from '@fastify/compress';

/**
 * HTTP caching and compression in one place, so every route gets the same rules:
 * - public reads (the library, shelves, a listing, a public profile and its books) opt in with
 *   `config: publicRead`; a browser revalidates them on every load, a CDN may keep them a few
 *   seconds only when the request has no session, and they are `private, no-cache` otherwise;
 *   a successful read carries an ETag and answers 304 to a matching If-None-Match;
 * - any other API answer without its own Cache-Control is `private, no-store`;
 * - hashed build assets are immutable for a year, everything else in the web folder (and the
 *   HTML of the single-page app) is `no-cache` with a validator.
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'public-read': cacheable by shared caches when the request is anonymous. */
    httpCache?: 'public-read';
  }
}

/** Seconds a shared cache (a CDN) may serve an anonymous public read without asking. */
export const PUBLIC_READ_S_MAXAGE = 5;

/**
 * Browsers: stale at once and never used stale (no stale-while-revalidate), so every load asks
 * and a 304 keeps it cheap. Shared caches: fresh for s-maxage, then they ask too. Not `no-cache`,
 * which binds shared caches as well and would make s-maxage void (decision 0051).
 */
export const PUBLIC_READ_CACHE_CONTROL = `public, max-age=0, must-revalidate, s-maxage=${PUBLIC_READ_S_MAXAGE}`;
export const PERSONAL_CACHE_CONTROL = 'private, no-cache';
export const API_DEFAULT_CACHE_CONTROL = 'private, no-store';
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'no-cache';
/**
 * Lower case on purpose: @fastify/compress appends 'accept-encoding' unless it finds it spelled so.
 * Cookie: the answer's cacheability depends on the session, so a shared cache must not hand an
 * anonymous copy to a signed-in member (or the reverse).
 */
export const PUBLIC_READ_VARY = 'accept-language, accept-encoding, cookie';

/** Route config of an anonymous-cacheable read: `{ config: publicRead, schema, ... }`. */
export const publicRead = { httpCache: 'public-read' } as const;

/** Text types worth compressing; images and fonts other than SVG are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = ['js', 'mjs', 'css', 'html', 'svg', 'json', 'txt', 'xml'];

/** Responses below this size are sent as they are: compressing them saves nothing. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/**
 * Brotli, else gzip, else identity, for every text answer over 1 KB (JSON, HTML, XML, SVG, plain
 * text). Static files already compressed at build time go out as they are (Content-Encoding set).
 * Register before any route: the plugin hooks routes as they are added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: COMPRESS_THRESHOLD_BYTES,
    // Quality 4 is the plugin's default, restated: 11 costs far too much CPU per request.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    // Request bodies stay as they are: nothing here sends compressed uploads.
    globalDecompression: false,
  });
}

/** True when the answer may be shared: no session behind it and no cookie being set. */
function isAnonymous(request: FastifyRequest, reply: FastifyReply): boolean {
  return !request.user && !reply.hasHeader('set-cookie');
}

/**
 * Gives a read's body its ETag and answers 304, without the body, when the request's
 * If-None-Match names it. Runs before compression (route hooks of @fastify/compress come after
 * this instance hook), so one ETag stands for the plain, Brotli and gzip bytes alike.
 */
function withValidator(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  const etag = etagOf(payload);
  reply.header('etag', etag);
  if (!matchesIfNoneMatch(request, etag)) return payload;
  reply.code(304);
  return null;
}

export function registerHttpCache(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config?.httpCache === 'public-read') {
      const ok = reply.statusCode === 200 && ['GET', 'HEAD'].includes(request.method);
      reply.header('vary', PUBLIC_READ_VARY);
      if (!isAnonymous(request, reply)) reply.header('cache-control', PERSONAL_CACHE_CONTROL);
      else if (ok) reply.header('cache-control', PUBLIC_READ_CACHE_CONTROL);
      else if (!reply.hasHeader('cache-control'))
        reply.header('cache-control', REVALIDATE_CACHE_CONTROL);
      // Signed in or not, the browser may keep the answer and must ask again: a validator.
      if (ok) return withValidator(request, reply, payload);
    } else if (isApi(request.url) && !reply.hasHeader('cache-control')) {
      reply.header('cache-control', API_DEFAULT_CACHE_CONTROL);
    }
    return payload;
  });
}

/**
 * The validator of a body generated in memory (a page's HTML, a public read's JSON). Weak: the
 * same tag names the plain, Brotli and gzip bytes, which a strong tag may not (RFC 9110 8.8.1);
 * If-None-Match compares weakly, so a weak tag is all a 304 needs.
 */
export function etagOf(body: string | Buffer): string {
  return `W/"${createHash('sha1').update(body).digest('base64url').slice(0, 27)}"`;
}

/** True when the request's If-None-Match names this ETag (or '*'), compared weakly. */
export function matchesIfNoneMatch(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === opaque);
}
