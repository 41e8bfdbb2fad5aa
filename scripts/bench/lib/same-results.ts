/**
 * A speed figure is worth nothing if the answers changed. Decision 0096 counts the copies of the
 * page's works by an index-only scan (migration 0056): before measuring, searches of the mix go
 * through searchListings as deployed and on a connection without index-only scans (the copies
 * then counted on each copy's row, as before), and their answers are compared whole: the page's
 * listings in order, the total and whether it is capped, the price bounds, the exact facets, the
 * corrected words and the copies of each work.
 */
import pg from 'pg';
import { libraryQuerySchema } from '../../../src/shared/marketplace';
import { SESSION_OPTIONS, wrapPool } from '../../../src/server/db/client';
import { searchListings } from '../../../src/server/modules/library';

export interface SameResults {
  searches: number;
  /** Searches answered otherwise as deployed than twice without index-only scans. */
  differing: string[];
  /** Searches whose answer differs between two asks without them too. */
  unsteady: string[];
}

const answer = (page: Awaited<ReturnType<typeof searchListings>>) =>
  JSON.stringify({
    ids: page.items.map((i) => i.id),
    total: page.total,
    capped: page.totalCapped ?? false,
    bounds: page.priceBounds,
    // Capped facets are counts of the matches one read went through (a sample, and a read of the
    // table in order starts where a synchronized scan is): compared by their flag.
    facets: page.facets?.capped ? { capped: true } : (page.facets ?? null),
    corrected: page.correctedQ ?? null,
    copies: page.workCopies ?? null,
  });

export async function sameResults(url: string, mix: string[]): Promise<SameResults> {
  const open = (options: string) =>
    wrapPool(new pg.Pool({ connectionString: url, max: 2, options }));
  const deployed = open(SESSION_OPTIONS);
  const before = open(`${SESSION_OPTIONS} -c enable_indexonlyscan=off`);
  try {
    const differing: string[] = [];
    const unsteady: string[] = [];
    for (const search of mix) {
      const query = libraryQuerySchema.parse(Object.fromEntries(new URLSearchParams(search)));
      const was = answer(await searchListings(before, query));
      if (was === answer(await searchListings(deployed, query))) continue;
      if (was === answer(await searchListings(before, query))) differing.push(search);
      else unsteady.push(search);
    }
    return { searches: mix.length, differing, unsteady };
  } finally {
    await deployed.close();
    await before.close();
  }
}
