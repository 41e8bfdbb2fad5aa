import type { Database } from '../../db/client';
import { escapeXml } from './html';
import { PUBLIC_MEMBER } from './queries';
import { visibleListing } from '../../platform/moderation/members';
import { toIso } from '../../db/rows';

/** The sitemap protocol's limit per file (50 MB is far off: a URL line is about 150 bytes). */
export const SITEMAP_MAX_URLS = 50_000;
/** Rows read per query while a sitemap file streams out. */
const BATCH = 5_000;

/** Public pages without data, in the sitemap's own file. */
export const STATIC_SITEMAP_PATHS = [
  '/',
  '/library',
  '/buy',
  '/trade',
  '/about',
  '/contact',
  '/privacy-policy',
  '/terms-of-service',
  '/cookie-policy',
];

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

/**
 * What one kind of sitemap lists, in (created_at, id) order on an index: `first` places a page
 * by offset ($1 rows, $2 offset), `next` continues after the last row read ($1 rows, $2, $3).
 * The cursor is created_at as text: a JavaScript Date would drop its microseconds.
 */
interface Source {
  count: string;
  first: string;
  next: string;
  loc: (publicUrl: string, id: string) => string;
}

const COLUMNS = 'id, updated_at, created_at::text as cursor';
/** Available listings readers can see (not hidden by a moderator, seller active). */
const LISTED = `status = 'available' and ${visibleListing('book_listings')}`;

/** A work with an available copy readers can see. */
const WORK_LISTED = `exists (select 1 from book_listings l where l.work_id = w.id
  and l.status = 'available' and ${visibleListing('l')})`;

const SOURCES = {
  // book_listings_status_newest_idx (status, created_at desc, id desc), read backwards.
  listings: {
    count: `select count(*)::int as n from book_listings where ${LISTED}`,
    first: `select ${COLUMNS} from book_listings where ${LISTED}
      order by created_at, id offset $2 limit $1`,
    next: `select ${COLUMNS} from book_listings where ${LISTED}
        and (created_at, id) > ($2::timestamptz, $3::uuid)
      order by created_at, id limit $1`,
    loc: (publicUrl, id) => `${publicUrl}/library/book/${encodeURIComponent(id)}`,
  },
  // Works with an available copy readers can see, on works_created_idx (created_at, id) and
  // book_listings_available_work_idx (migration 0053).
  works: {
    count: `select count(*)::int as n from works w where ${WORK_LISTED}`,
    first: `select ${COLUMNS} from works w where ${WORK_LISTED}
      order by created_at, id offset $2 limit $1`,
    next: `select ${COLUMNS} from works w where ${WORK_LISTED}
        and (created_at, id) > ($2::timestamptz, $3::uuid)
      order by created_at, id limit $1`,
    loc: (publicUrl, id) => `${publicUrl}/books/${encodeURIComponent(id)}`,
  },
  // users_public_profiles_idx (created_at, id) where the member is public (migration 0009).
  profiles: {
    count: `select count(*)::int as n from users where ${PUBLIC_MEMBER}`,
    first: `select ${COLUMNS} from users where ${PUBLIC_MEMBER}
      order by created_at, id offset $2 limit $1`,
    next: `select ${COLUMNS} from users where ${PUBLIC_MEMBER}
        and (created_at, id) > ($2::timestamptz, $3::text)
      order by created_at, id limit $1`,
    loc: (publicUrl, id) => `${publicUrl}/user/${encodeURIComponent(id)}`,
  },
} satisfies Record<string, Source>;

export type SitemapKind = keyof typeof SOURCES;
export const SITEMAP_KINDS = Object.keys(SOURCES) as SitemapKind[];

export async function countPages(
  database: Database,
  kind: SitemapKind,
  pageSize = SITEMAP_MAX_URLS,
): Promise<number> {
  const [row] = await database.query<{ n: number }>(SOURCES[kind].count);
  return Math.ceil(row.n / pageSize);
}

/** The sitemap index: the static pages' file, then every page of listings, works and profiles. */
export async function sitemapIndex(
  database: Database,
  publicUrl: string,
  pageSize = SITEMAP_MAX_URLS,
): Promise<string> {
  const files = ['pages.xml'];
  for (const kind of SITEMAP_KINDS) {
    const pages = await countPages(database, kind, pageSize);
    for (let n = 1; n <= pages; n++) files.push(`${kind}-${n}.xml`);
  }
  const entries = files.map(
    (file) => `<sitemap><loc>${escapeXml(`${publicUrl}/sitemaps/${file}`)}</loc></sitemap>`,
  );
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

export function staticSitemap(publicUrl: string): string {
  const urls = STATIC_SITEMAP_PATHS.map(
    (path) => `<url><loc>${escapeXml(`${publicUrl}${path}`)}</loc></url>`,
  );
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

/**
 * Page `page` (from 1) of a kind's sitemap, streamed in batches: the offset places the first
 * batch, then each batch continues after the last row read, so no query walks the whole index and
 * no file is held in memory. Null when the page does not exist.
 */
export async function sitemapPage(
  database: Database,
  publicUrl: string,
  kind: SitemapKind,
  page: number,
  {
    pageSize = SITEMAP_MAX_URLS,
    batchSize = BATCH,
  }: { pageSize?: number; batchSize?: number } = {},
): Promise<AsyncIterable<string> | null> {
  const source = SOURCES[kind];
  if (!Number.isInteger(page) || page < 1) return null;
  const pages = await countPages(database, kind, pageSize);
  if (page > pages && !(page === 1 && pages === 0)) return null;

  async function* lines() {
    yield `${XML_HEAD}<urlset xmlns="${NS}">\n`;
    let left = pageSize;
    let after: SitemapRow | null = null;
    while (left > 0) {
      const limit = Math.min(batchSize, left);
      const rows: SitemapRow[] = after
        ? await database.query(source.next, [limit, after.cursor, after.id])
        : await database.query(source.first, [limit, (page - 1) * pageSize]);
      if (rows.length === 0) break;
      yield rows
        .map(
          (row) =>
            `<url><loc>${escapeXml(source.loc(publicUrl, row.id))}</loc><lastmod>${toIso(row.updated_at)}</lastmod></url>\n`,
        )
        .join('');
      left -= rows.length;
      after = rows[rows.length - 1];
    }
    yield '</urlset>\n';
  }
  return lines();
}

interface SitemapRow {
  id: string;
  updated_at: Date;
  cursor: string;
}
