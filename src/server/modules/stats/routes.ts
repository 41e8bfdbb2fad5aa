import { z } from 'zod';
import type { Module } from '../../platform/module';
import type { Database } from '../../db/client';
import { visibleListing } from '../../platform/moderation/members';

export const siteStatsSchema = z.object({
  booksAvailable: z.number().int(),
  activeUsers: z.number().int(),
  totalTransactions: z.number().int(),
});
export type SiteStats = z.infer<typeof siteStatsSchema>;

export async function countSiteStats(database: Database): Promise<SiteStats> {
  const [row] = await database.query<{ books: number; users: number; trades: number }>(
    `select
       (select count(*) from book_listings l
         where l.status = 'available' and ${visibleListing('l')})::int as books,
       -- Suspended and deleted accounts are not active members.
       (select count(*) from users where account_status = 'active')::int as users,
       (select count(*) from transactions where status = 'completed')::int as trades`,
  );
  return { booksAvailable: row.books, activeUsers: row.users, totalTransactions: row.trades };
}

/** The home counters are read on every visit; a short cache keeps the home page cheap. */
export const STATS_CACHE_MS = 30_000;

export const statsRoutes: Module = async (app, { database, now }) => {
  let cached: { at: number; value: SiteStats } | undefined;
  app.get(
    '/api/stats',
    {
      schema: {
        tags: ['stats'],
        summary: 'Site counters for the home page',
        response: { 200: siteStatsSchema },
      },
    },
    async (_request, reply) => {
      const t = now().getTime();
      if (!cached || t - cached.at > STATS_CACHE_MS)
        cached = { at: t, value: await countSiteStats(database) };
      reply.header('cache-control', `public, max-age=${STATS_CACHE_MS / 1000}`);
      return cached.value;
    },
  );
};
