import type { Sort, LibraryQuery, ListingType } from '@shared/marketplace';
import { libraryListing, notBlocked } from '../../../platform/moderation';
import { Filters } from './clauses';
import { type CompiledWords, matchWords, searchWords, wordsQuery } from './words';

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Type 'sell' means "can be bought" (sell or both), 'trade' "can be traded" (trade or both). */
export function typeValues(type: ListingType): ListingType[] {
  return type === 'sell' ? ['sell', 'both'] : type === 'trade' ? ['trade', 'both'] : ['both'];
}

export interface SearchFilters {
  q?: string;
  author?: string;
  genre?: string;
  type?: ListingType;
  condition?: string;
  minPrice?: number;
  maxPrice?: number;
  status?: string;
  /**
   * A signed-in viewer who has blocks (platform/moderation/blocks.ts): listings of the members a
   * block stands between them and the viewer are left out. Unset for visitors and members
   * without blocks, so their queries keep their shape.
   */
  apartFrom?: string;
  /** q's tsqueries, compiled once per search (compileWords); built inline when absent. */
  words?: CompiledWords;
}

/**
 * The library's filters as SQL on book_listings `l`. Text: every word of q as a prefix or by its
 * Italian or English stem, in the title, author or description (accents ignored). Price:
 * listings with a price in the range; listings without a price (trade only) stay unless a minimum
 * above 0 is asked. One condition per filter: a new filter is one more `if`.
 */
export function buildFilters(f: SearchFilters): Filters {
  const filters = new Filters();
  filters.add(libraryListing('l'));
  if (f.apartFrom) filters.add(notBlocked(filters.param(f.apartFrom), 'l.user_id'));
  const status = f.status ?? 'available';
  if (status !== 'all') filters.add(`l.status = ${filters.param(status)}`);
  if (f.genre) filters.add(`l.genre = ${filters.param(f.genre)}`);
  if (f.type) filters.add(`l.listing_type = any(${filters.param(typeValues(f.type))}::text[])`);
  if (f.condition) filters.add(`l.condition = ${filters.param(f.condition)}`);
  if (f.author) {
    filters.add(
      `l.author_norm like '%' || lower(immutable_unaccent(${filters.param(escapeLike(f.author))})) || '%'`,
    );
  }
  const words = searchWords(f.q);
  if (f.words) filters.add(`l.search_vector @@ ${filters.param(f.words.match)}::tsquery`);
  else if (words.length) {
    const { terms, prefix } = matchWords(words);
    filters.add(`l.search_vector @@ (${wordsQuery(filters, terms, { prefix })})`);
  }
  const range = priceRange(filters, f);
  if (range) filters.addPrice(range);
  return filters;
}

/**
 * A price range as a condition on `l`, its values parameters of `f`: listings with a price in
 * the range, and those without one (trade only) unless a minimum above 0 is asked. Null without
 * a range.
 */
export function priceRange(
  f: Filters,
  { minPrice, maxPrice }: Pick<SearchFilters, 'minPrice' | 'maxPrice'>,
) {
  if (minPrice === undefined && maxPrice === undefined) return null;
  const range: string[] = [];
  if (minPrice !== undefined) range.push(`l.price >= ${f.param(minPrice)}`);
  if (maxPrice !== undefined) range.push(`l.price <= ${f.param(maxPrice)}`);
  const inRange = range.join(' and ');
  return minPrice ? `(${inRange})` : `(l.price is null or (${inRange}))`;
}

export const ORDER = {
  relevance: 'h.score desc, l.created_at desc, l.id desc',
  newest: 'l.created_at desc, l.id desc',
  price_asc: 'l.price asc nulls last, l.created_at desc, l.id desc',
  price_desc: 'l.price desc nulls last, l.created_at desc, l.id desc',
} as const;

/** The order asked for: relevance by default when there are words, newest without words. */
export function sortOf(q: Pick<LibraryQuery, 'q' | 'sort'>): Sort {
  const hasWords = searchWords(q.q).length > 0;
  const sort = q.sort ?? (hasWords ? 'relevance' : 'newest');
  return sort === 'relevance' && !hasWords ? 'newest' : sort;
}
