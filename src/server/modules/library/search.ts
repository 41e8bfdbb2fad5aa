import {
  DEFAULT_PRICE_RANGE,
  LIBRARY_PAGE_SIZE,
  type LibraryQuery,
  type ListingPage,
} from '@shared/marketplace';
import type { Database } from '../../db/client';
import { toCard, type CardRow } from '../listings';
import { type Search, compileWords, matchWords, searchWords } from './search/words';
import {
  type Totals,
  TotalsCache,
  blockedMatches,
  cardsOf,
  countedTotals,
  loadItems,
  matchedTotals,
} from './search/counts';
import { correctTypos } from './search/suggestions';
import { loadFacets } from './search/facets';
import { sortOf } from './search/filters';
import { copiesPerWork } from './works/queries';

export { Filters } from './search/clauses';
export { type SearchFilters, buildFilters, sortOf, typeValues } from './search/filters';
export {
  type CompiledWords,
  RANKING_COLUMNS,
  compileWords,
  matchWords,
  relevanceScore,
  searchWords,
} from './search/words';
export { TOTALS_REFRESH_MS, TOTALS_TTL_MS, TotalsCache } from './search/counts';
export { correctTypos, editDistance } from './search/suggestions';

async function runSearch(
  database: Database,
  query: LibraryQuery,
  cache?: TotalsCache,
  apartFrom?: string,
): Promise<ListingPage> {
  const words = searchWords(query.q);
  const compile = () => compileWords(database, words);
  const q: Search = words.length
    ? {
        ...query,
        words: await (cache ? cache.words.get(words.join(' '), compile) : compile()),
      }
    : query;
  const page = q.page ?? 1;
  const pageSize = q.pageSize ?? LIBRARY_PAGE_SIZE;
  const broad = !q.author && searchWords(q.q).length === 0;
  // Total under every filter; price bounds under every filter but the price range itself,
  // so the slider keeps its full span while it narrows the results.
  // A search with words or an author gets its page, in any order, from the totals' read of the
  // matches when the totals are not cached (and the matches are under the cap); a viewer with
  // blocks reads the page without the blocked members' listings, on its own.
  const paged = !broad && !apartFrom;
  let pageIds: string[] | undefined;
  const loadTotals = async (): Promise<Totals> => {
    if (broad) return countedTotals(database, q);
    const { pageIds: ids, ...t } = await matchedTotals(
      database,
      q,
      paged ? { pageSize, offset: (page - 1) * pageSize, sort: sortOf(q) } : undefined,
    );
    pageIds = ids;
    return t;
  };
  const key = JSON.stringify([
    q.q ?? null,
    q.author ?? null,
    q.genre ?? null,
    q.type ?? null,
    q.condition ?? null,
    q.minPrice ?? null,
    q.maxPrice ?? null,
    q.status ?? 'available',
  ]);
  const shared = cache ? cache.get(key, loadTotals) : loadTotals();
  // Price bounds stay those of every reader (a blocked member's prices may widen the slider).
  // A capped total stays the cap ("more than"): the blocked members' few listings do not move it.
  const totals: Promise<Totals> = apartFrom
    ? shared.then(async (t) =>
        t.capped
          ? t
          : { ...t, total: Math.max(0, t.total - (await blockedMatches(database, q, apartFrom))) },
      )
    : shared;
  const facets = q.facets ? loadFacets(database, q, broad, cache, apartFrom) : undefined;
  let items: Promise<CardRow[]>;
  if (broad) items = loadItems(database, q, { fewMatches: false, capped: false }, apartFrom);
  else {
    // Reading in index order tests about (listings before the page's end) × base / matches
    // listings; finding the matches costs about twice their number.
    const { total, base = 0, capped, matches = total } = await totals;
    const fewMatches = 2 * matches * matches <= page * pageSize * base;
    items = pageIds
      ? cardsOf(database, pageIds)
      : loadItems(database, q, { fewMatches, capped: !!capped }, apartFrom);
  }
  const [t, rows, counts] = await Promise.all([totals, items, facets]);
  const { genres } = matchWords(words);
  const workIds = rows.flatMap((r) => (r.work_id ? [r.work_id] : []));
  const workCopies = await copiesPerWork(database, workIds, apartFrom);
  return {
    items: rows.map(toCard),
    total: t.total,
    ...(t.capped ? { totalCapped: true } : {}),
    page,
    pageSize,
    // No priced listing under these filters: the default range of the library screen.
    priceBounds:
      t.min === null || t.max === null
        ? { min: DEFAULT_PRICE_RANGE[0], max: DEFAULT_PRICE_RANGE[1] }
        : { min: t.min, max: t.max },
    ...(counts ? { facets: counts } : {}),
    ...(genres.length ? { genres } : {}),
    ...(workIds.length ? { workCopies } : {}),
  };
}

/**
 * Words first; when they match nothing (and `exact` is not asked), the same search with its
 * typos corrected, whose answer says so (`correctedQ`).
 */
export async function searchListings(
  database: Database,
  query: LibraryQuery,
  cache?: TotalsCache,
  apartFrom?: string,
): Promise<ListingPage> {
  const exact = await runSearch(database, query, cache, apartFrom);
  if (exact.total > 0 || !query.q || query.exact) return exact;
  const q = query.q;
  const corrected = await (cache
    ? cache.corrections.get(q, () => correctTypos(database, q))
    : correctTypos(database, q));
  if (!corrected) return exact;
  const fixed = await runSearch(database, { ...query, q: corrected }, cache, apartFrom);
  return fixed.total > 0 ? { ...fixed, correctedQ: corrected } : exact;
}
