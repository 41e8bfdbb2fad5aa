import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { coverSvg, type CoverWidth } from '@shared/cover';
import { createWidthVariants, writeAtomically } from '../../platform/storage';

/**
 * Remote covers (Google Books, Goodreads) served from our origin, so the CSP can keep images to
 * 'self': fetched once, re-encoded to WebP (which also proves it is an image), cached on disk.
 * Only these hosts, compared whole (a pattern let books.google.evil.example through), over https
 * on the default port, and the configured Google Books server (host and port) are ever fetched.
 */
const COVER_HOSTS = new Set([
  'books.google.com',
  'books.googleusercontent.com',
  'images.gr-assets.com',
  's.gr-assets.com',
  'i.gr-assets.com',
  'images-na.ssl-images-amazon.com',
  'images-eu.ssl-images-amazon.com',
  'covers.openlibrary.org',
]);
const MAX_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;
/** A cover that failed is retried after this long, not on every request. */
const FAILURE_TTL_MS = 10 * 60 * 1000;

export function isAllowedCoverUrl(url: string, extraHosts: string[] = []): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (extraHosts.includes(parsed.host))
    return parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return parsed.protocol === 'https:' && parsed.port === '' && COVER_HOSTS.has(parsed.hostname);
}

export interface CoverCache {
  /** The cached WebP for a book, fetching it on first use; null when it cannot be had. */
  get(bookId: string, remoteUrl: string): Promise<Buffer | null>;
  /** The same cover resized to one of the cover widths (made once, kept on disk). */
  sized(bookId: string, remoteUrl: string, width: CoverWidth): Promise<Buffer | null>;
}

export function createCoverCache(opts: {
  dir: string;
  fetch: typeof fetch;
  timeoutMs: number;
  extraHosts: string[];
}): CoverCache {
  const inFlight = new Map<string, Promise<Buffer | null>>();
  const failedAt = new Map<string, number>();

  async function download(url: string): Promise<Buffer | null> {
    let current = url;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (!isAllowedCoverUrl(current, opts.extraHosts)) return null;
      const res = await opts.fetch(current, {
        redirect: 'manual',
        signal: AbortSignal.timeout(opts.timeoutMs),
        headers: { accept: 'image/*' },
      });
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        if (!location) return null;
        current = new URL(location, current).toString();
        continue;
      }
      if (!res.ok) return null;
      const declared = Number(res.headers.get('content-length') ?? 0);
      if (declared > MAX_BYTES) return null;
      const body = Buffer.from(await res.arrayBuffer());
      if (body.length === 0 || body.length > MAX_BYTES) return null;
      return body;
    }
    return null;
  }

  async function load(bookId: string, remoteUrl: string): Promise<Buffer | null> {
    const file = join(opts.dir, `${bookId}.webp`);
    try {
      return await readFile(file);
    } catch {
      // not cached yet
    }
    const failed = failedAt.get(bookId);
    if (failed && Date.now() - failed < FAILURE_TTL_MS) return null;
    try {
      const original = await download(remoteUrl);
      if (!original) throw new Error('no image');
      const webp = await sharp(original, { limitInputPixels: 50_000_000 })
        .resize({ width: 600, height: 900, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer();
      await writeAtomically(file, webp);
      failedAt.delete(bookId);
      return webp;
    } catch {
      failedAt.set(bookId, Date.now());
      return null;
    }
  }

  const get = async (bookId: string, remoteUrl: string) => {
    // A row stored before the hosts were matched whole may name any host: neither fetched nor
    // served from what an earlier fetch cached.
    if (!isAllowedCoverUrl(remoteUrl, opts.extraHosts)) return null;
    const pending = inFlight.get(bookId);
    if (pending) return pending;
    const p = load(bookId, remoteUrl).finally(() => inFlight.delete(bookId));
    inFlight.set(bookId, p);
    return p;
  };
  const variants = createWidthVariants(join(opts.dir, 'sized'));
  return {
    get,
    sized: async (bookId, remoteUrl, width) =>
      isAllowedCoverUrl(remoteUrl, opts.extraHosts)
        ? variants.get(`${bookId}.webp`, width, () => get(bookId, remoteUrl))
        : null,
  };
}

/**
 * A book without a usable image gets its generated cover, the same one the web app draws, so a
 * link preview or a crawler sees the book rather than a grey box.
 */
export function placeholderCover(book: { title: string; author?: string | null } | null): string {
  return coverSvg({ title: book?.title ?? '', author: book?.author });
}
