import { z } from 'zod';
import type { Module } from '../../platform/module';
import type { Database } from '../../db/client';
import { libraryListing } from '../../platform/moderation/members';
import { TtlCache } from '../../platform/ttl-cache';
import { etagOf, matchesIfNoneMatch } from '../../platform/http-cache';

export const siteStatsSchema = z.object({
  booksAvailable: z.number().int(),
  activeUsers: z.number().int(),
  totalTransactions: z.number().int(),
});
export type SiteStats = z.infer<typeof siteStatsSchema>;

export async function countSiteStats(database: Database): Promise<SiteStats> {
  const [row] = await database.query<{ books: number; users: number; trades: number }>(
    `select
       -- The library's definition (its "books found" with no filter): visible, the seller not
       -- on holiday (issue 33: the home said 354, the library 317).
       (select count(*) from book_listings l
         where l.status = 'available' and ${libraryListing('l')})::int as books,
       -- Suspended and deleted accounts are not active members.
       (select count(*) from users where account_status = 'active')::int as users,
       (select count(*) from transactions where status = 'completed')::int as trades`,
  );
  return { booksAvailable: row.books, activeUsers: row.users, totalTransactions: row.trades };
}

/**
 * The home counters are read on every visit: they are counted at most every 30 s (server side)
 * and a browser or CDN may keep them as long (`max-age=30`: counters a few seconds old mislead no
 * one, unlike a listing's status, decision 0051). An ETag still makes a revalidation a 304.
 */
export const STATS_CACHE_MS = 30_000;
export const STATS_CACHE_CONTROL = `public, max-age=${STATS_CACHE_MS / 1000}`;

export const statsRoutes: Module = async (app, { database, now }) => {
  const cache = new TtlCache<string>(STATS_CACHE_MS, () => now().getTime(), 1);
  app.get(
    '/api/stats',
    {
      schema: {
        tags: ['stats'],
        summary: 'Site counters for the home page',
        description:
          'Available listings (those the library shows: visible, seller not on holiday), active members, completed transactions. Counted at ' +
          'most every 30 s; Cache-Control public, max-age=30, with an ETag (304 on If-None-Match).',
        response: { 200: siteStatsSchema, 304: z.null().describe('Not modified (If-None-Match)') },
      },
    },
    async (request, reply) => {
      const body = await cache.get('stats', async () =>
        JSON.stringify(siteStatsSchema.parse(await countSiteStats(database))),
      );
      const etag = etagOf(body);
      reply.header('cache-control', STATS_CACHE_CONTROL).header('etag', etag);
      if (matchesIfNoneMatch(request, etag)) return reply.code(304).send(null);
      // Sent as it is: the body is the schema's JSON already.
      return reply.type('application/json; charset=utf-8').send(body as unknown as SiteStats);
    },
  );
};
