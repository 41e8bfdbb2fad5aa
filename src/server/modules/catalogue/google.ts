import { z } from 'zod';

/**
 * The Google Books volumes API as we use it: one restricted-fields search. The response keeps
 * Google's shape (totalItems, items[].volumeInfo); `items` is absent when nothing matched.
 */
export const GOOGLE_FIELDS =
  'totalItems,items(id,volumeInfo(title,authors,publisher,publishedDate,description,industryIdentifiers,pageCount,categories,language,imageLinks))';

const volumeSchema = z.object({
  id: z.string().min(1),
  volumeInfo: z
    .object({
      title: z.string().optional(),
      authors: z.array(z.string()).optional(),
      publisher: z.string().optional(),
      publishedDate: z.string().optional(),
      description: z.string().optional(),
      industryIdentifiers: z
        .array(z.object({ type: z.string(), identifier: z.string() }))
        .optional(),
      pageCount: z.number().optional(),
      categories: z.array(z.string()).optional(),
      language: z.string().optional(),
      imageLinks: z.record(z.string(), z.string()).optional(),
    })
    .default({}),
});
const volumesSchema = z.object({
  totalItems: z.number().optional(),
  items: z.array(volumeSchema).optional(),
});
export type GoogleVolume = z.infer<typeof volumeSchema>;

/** A catalogue entry as we store it (books table), before it has our id. */
export interface CatalogueEntry {
  googleBooksId: string | null;
  title: string;
  authors: string[];
  isbn10: string | null;
  isbn13: string | null;
  publisher: string | null;
  publishedDate: string | null;
  description: string | null;
  pageCount: number | null;
  categories: string[];
  language: string | null;
  coverUrl: string | null;
}

export class GoogleBooksUnavailable extends Error {}

const COVER_PREFERENCE = ['large', 'medium', 'small', 'thumbnail', 'smallThumbnail'] as const;

/** Google hands out http:// image links; the same paths answer over https. */
function secureImage(url: string | undefined): string | null {
  if (!url) return null;
  return url.replace(
    /^http:\/\/(books\.google\.[a-z.]+|[a-z0-9-]+\.googleusercontent\.com)\//i,
    'https://$1/',
  );
}

export function toCatalogueEntry(volume: GoogleVolume): CatalogueEntry | null {
  const info = volume.volumeInfo;
  const title = info.title?.trim();
  if (!title) return null;
  const ids = info.industryIdentifiers ?? [];
  const digits = (type: string) => {
    const raw = ids.find((i) => i.type === type)?.identifier.replace(/[\s-]/g, '');
    return raw && /^[\dX]+$/i.test(raw) ? raw.toUpperCase() : null;
  };
  const links = info.imageLinks ?? {};
  const cover = COVER_PREFERENCE.map((k) => links[k]).find(Boolean);
  return {
    googleBooksId: volume.id,
    title: title.slice(0, 500),
    authors: (info.authors ?? [])
      .map((a) => a.trim())
      .filter(Boolean)
      .slice(0, 20),
    isbn10: digits('ISBN_10'),
    isbn13: digits('ISBN_13'),
    publisher: info.publisher?.trim() || null,
    publishedDate: info.publishedDate?.trim() || null,
    description: info.description?.trim() || null,
    pageCount:
      typeof info.pageCount === 'number' && Number.isInteger(info.pageCount) && info.pageCount > 0
        ? info.pageCount
        : null,
    categories: (info.categories ?? [])
      .map((c) => c.trim())
      .filter(Boolean)
      .slice(0, 20),
    language: info.language?.trim() || null,
    coverUrl: secureImage(cover),
  };
}

export interface GoogleBooksClient {
  search(q: string, limit: number): Promise<CatalogueEntry[]>;
}

export function createGoogleBooksClient(opts: {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
  fetch: typeof fetch;
}): GoogleBooksClient {
  return {
    async search(q, limit) {
      const params = new URLSearchParams({
        q,
        maxResults: String(limit),
        fields: GOOGLE_FIELDS,
      });
      if (opts.apiKey) params.set('key', opts.apiKey);
      let body: unknown;
      try {
        const res = await opts.fetch(`${opts.baseUrl}/volumes?${params}`, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
        if (!res.ok) throw new GoogleBooksUnavailable(`Google Books answered ${res.status}`);
        body = await res.json();
      } catch (err) {
        if (err instanceof GoogleBooksUnavailable) throw err;
        throw new GoogleBooksUnavailable((err as Error).message, { cause: err });
      }
      const parsed = volumesSchema.safeParse(body);
      if (!parsed.success) throw new GoogleBooksUnavailable('unexpected Google Books response');
      const seen = new Set<string>();
      const entries: CatalogueEntry[] = [];
      for (const volume of parsed.data.items ?? []) {
        if (seen.has(volume.id)) continue;
        seen.add(volume.id);
        const entry = toCatalogueEntry(volume);
        if (entry) entries.push(entry);
      }
      return entries.slice(0, limit);
    },
  };
}
