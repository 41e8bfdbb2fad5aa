import {
  libraryPathOf,
  type SavedSearch,
  type SavedSearchFilters,
} from '@shared/schemas/savedSearches';
import type { Database } from '../../db/client';
import type { Query } from '../../db/tx';
import { libraryListing } from '../../platform/moderation';
import { mayHearSql } from '../../platform/notifications/audience';
// The library's own word normaliser (library/search.ts reads its search box with it): a saved
// search's words are read exactly as the library reads the same words. matcher.test.ts checks
// that a match is what the library's search finds, so a change there cannot drift unseen.
import { prefixQuery } from '../catalogue';
import { toIso } from '../../db/rows';

export interface SearchRow {
  id: string;
  name: string;
  q: string | null;
  author: string | null;
  genre: SavedSearchFilters['genre'] | null;
  listing_type: SavedSearchFilters['type'] | null;
  condition: SavedSearchFilters['condition'] | null;
  min_price: string | number | null;
  max_price: string | number | null;
  notify: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, name, q, author, genre, listing_type, condition, min_price, max_price, notify,
  created_at, updated_at`;

const num = (v: string | number | null) => (v === null ? undefined : Number(v));

export function filtersOf(
  r: Pick<
    SearchRow,
    'q' | 'author' | 'genre' | 'listing_type' | 'condition' | 'min_price' | 'max_price'
  >,
): SavedSearch['filters'] {
  const f: SavedSearch['filters'] = {
    q: r.q ?? undefined,
    author: r.author ?? undefined,
    genre: r.genre ?? undefined,
    type: r.listing_type ?? undefined,
    condition: r.condition ?? undefined,
    minPrice: num(r.min_price),
    maxPrice: num(r.max_price),
  };
  for (const k of Object.keys(f) as (keyof typeof f)[]) if (f[k] === undefined) delete f[k];
  return f;
}

export function toSavedSearch(r: SearchRow): SavedSearch {
  const filters = filtersOf(r);
  return {
    id: r.id,
    name: r.name,
    filters,
    notify: r.notify,
    libraryPath: libraryPathOf(filters),
    createdAt: toIso(r.created_at),
    updatedAt: toIso(r.updated_at),
  };
}

/**
 * The index keys of a saved search, from what it stores: each word of its query ('w:'), else the
 * first three letters of its author ('a:'), else its genre or '*' ('g:'). A listing matches only
 * searches that share a key with it (see LISTING_KEYS), so the keys must be implied by a match:
 * every word of the query is a prefix of a word of the listing, the author a part of its author.
 */
const keysOfSearch = (genre: string) => `case
    when d.query is not null then array(
      select distinct 'w:' || replace(m[1], '''''', '''')
      from regexp_matches(d.query::text, '''((?:[^'']|'''')+)''', 'g') as m)
    when d.author_norm is not null then array['a:' || left(d.author_norm, 3)]
    else array['g:' || coalesce(${genre}, '*')]
  end`;
/** q as the library reads it, and the author as it compares it. */
const derived = (prefix: string, author: string) =>
  `(select case when ${prefix} is null then null
          else to_tsquery('simple', immutable_unaccent(${prefix})) end as query,
          lower(immutable_unaccent(${author})) as author_norm) as d`;

/** Inserts one saved search (the caller holds the member's lock and checked the limits). */
export async function insertSearch(
  query: Query,
  userId: string,
  name: string,
  f: SavedSearchFilters,
  at: string,
): Promise<SearchRow> {
  const [row] = await query<SearchRow>(
    `insert into saved_searches (user_id, name, q, author, genre, listing_type, condition,
       min_price, max_price, query, author_norm, keys, created_at, updated_at)
     select $1, $2, $3, $4, $5, $6, $7, $8, $9, d.query, d.author_norm,
       ${keysOfSearch('$5::text')}, $11, $11
     from ${derived('$10::text', '$4::text')}
     returning ${COLUMNS}`,
    [
      userId,
      name,
      f.q ?? null,
      f.author ?? null,
      f.genre ?? null,
      f.type ?? null,
      f.condition ?? null,
      f.minPrice ?? null,
      f.maxPrice ?? null,
      f.q ? prefixQuery(f.q) : null,
      at,
    ],
  );
  return row;
}

/**
 * Many saved searches in one statement, without the per-member rules (the demo seed and the
 * benchmark write their own members' searches this way).
 */
export async function insertSearches(
  database: Pick<Database, 'query'>,
  rows: { userId: string; name: string; filters: SavedSearchFilters }[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const col = <T>(pick: (r: (typeof rows)[number]) => T) => rows.map(pick);
  const inserted = await database.query(
    `insert into saved_searches (user_id, name, q, author, genre, listing_type, condition,
       min_price, max_price, query, author_norm, keys)
     select x.user_id, x.name, x.q, x.author, x.genre, x.listing_type, x.condition, x.min_price,
       x.max_price, d.query, d.author_norm, ${keysOfSearch('x.genre')}
     from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
                 $7::text[], $8::numeric[], $9::numeric[], $10::text[])
            as x(user_id, name, q, author, genre, listing_type, condition, min_price, max_price,
                 prefix)
       cross join lateral ${derived('x.prefix', 'x.author')}
     on conflict do nothing
     returning id`,
    [
      col((r) => r.userId),
      col((r) => r.name),
      col((r) => r.filters.q ?? null),
      col((r) => r.filters.author ?? null),
      col((r) => r.filters.genre ?? null),
      col((r) => r.filters.type ?? null),
      col((r) => r.filters.condition ?? null),
      col((r) => r.filters.minPrice ?? null),
      col((r) => r.filters.maxPrice ?? null),
      col((r) => (r.filters.q ? prefixQuery(r.filters.q) : null)),
    ],
  );
  return inserted.length;
}

export async function countSearches(query: Query, userId: string): Promise<number> {
  const [row] = await query<{ n: number }>(
    'select count(*)::int as n from saved_searches where user_id = $1',
    [userId],
  );
  return row.n;
}

export async function nameTaken(
  query: Query,
  userId: string,
  name: string,
  except: string | null,
): Promise<boolean> {
  const rows = await query(
    `select 1 from saved_searches where user_id = $1 and lower(name) = lower($2)
       and ($3::uuid is null or id <> $3::uuid)`,
    [userId, name, except],
  );
  return rows.length > 0;
}

export async function listSearches(
  database: Database,
  userId: string,
  page: number,
  pageSize: number,
): Promise<{ items: SearchRow[]; total: number }> {
  const [items, [count]] = await Promise.all([
    database.query<SearchRow>(
      `select ${COLUMNS} from saved_searches where user_id = $1
       order by created_at desc, id desc limit $2 offset $3`,
      [userId, pageSize, (page - 1) * pageSize],
    ),
    database.query<{ n: number }>(
      'select count(*)::int as n from saved_searches where user_id = $1',
      [userId],
    ),
  ]);
  return { items, total: count.n };
}

/** Changes only what is given; null when the member has no such search. */
export async function updateSearch(
  query: Query,
  userId: string,
  id: string,
  patch: { name?: string; notify?: boolean },
  at: string,
): Promise<SearchRow | null> {
  const [row] = await query<SearchRow>(
    `update saved_searches set name = coalesce($3, name), notify = coalesce($4, notify),
       updated_at = $5
     where id = $1 and user_id = $2 returning ${COLUMNS}`,
    [id, userId, patch.name ?? null, patch.notify ?? null, at],
  );
  return row ?? null;
}

export async function deleteSearch(database: Database, userId: string, id: string) {
  const rows = await database.query(
    'delete from saved_searches where id = $1 and user_id = $2 returning id',
    [id, userId],
  );
  return rows.length > 0;
}

/**
 * A listing's index keys (the counterpart of KEYS_OF_SEARCH): every prefix of every word of its
 * search vector (the words the library's search matches), every 1 to 3 letter piece of its
 * author as the library compares it, its genre and '*'. Null when the listing is not available
 * in the library (hidden, its seller suspended or on holiday: it matches when it comes back).
 */
export async function listingKeys(
  database: Pick<Database, 'query'>,
  listingId: string,
): Promise<string[] | null> {
  const [row] = await database.query<{ keys: string[] }>(
    `select array(
       select 'w:' || left(w.word, n.n)
       from unnest(tsvector_to_array(l.search_vector)) as w(word),
         generate_series(1, length(w.word)) as n(n)
       union
       select 'a:' || substr(l.author_norm, i.i, n.n)
       from generate_series(1, length(l.author_norm)) as i(i), generate_series(1, 3) as n(n)
       where i.i + n.n - 1 <= length(l.author_norm)
       union select 'g:' || l.genre
       union select 'g:*') as keys
     from book_listings l
     where l.id = $1 and l.status = 'available' and ${libraryListing('l')}`,
    [listingId],
  );
  return row?.keys ?? null;
}

export interface NewMatch {
  user_id: string;
  search_id: string;
  search_name: string;
  seller_id: string;
  title: string;
  q: string | null;
  author: string | null;
  genre: SearchRow['genre'];
  listing_type: SearchRow['listing_type'];
  condition: SearchRow['condition'];
  min_price: string | number | null;
  max_price: string | number | null;
}

/**
 * The saved searches a listing matches, found on the keys' GIN index and then checked against
 * every filter as the library applies it (words: the stored tsquery on the listing's search
 * vector; author: a part of the unaccented author; type: 'both' fits sell and trade; price: a
 * listing without a price stays unless a minimum above 0 is asked). Never the seller's own, never
 * across a block, never for a suspended or deleted member, never a search whose alerts are off.
 * Stores one match per member and listing (the first saved of their matching searches) and
 * returns the new ones: a listing told once stays told (relisting repeats nothing).
 */
export async function storeMatches(
  database: Pick<Database, 'query'>,
  listingId: string,
  keys: string[],
  at: string,
): Promise<NewMatch[]> {
  return database.query<NewMatch>(
    `with found as (
       select distinct on (s.user_id) s.user_id, s.id, s.name, l.id as listing_id
       from saved_searches s, book_listings l
       where l.id = $1 and s.keys && $2::text[] and s.notify and s.user_id <> l.user_id
         and (s.query is null or l.search_vector @@ s.query)
         and (s.author_norm is null or strpos(l.author_norm, s.author_norm) > 0)
         and (s.genre is null or s.genre = l.genre)
         and (s.listing_type is null or l.listing_type in (s.listing_type, 'both'))
         and (s.condition is null or s.condition = l.condition)
         and ((l.price is null and coalesce(s.min_price, 0) = 0)
              or ((s.min_price is null or l.price >= s.min_price)
                  and (s.max_price is null or l.price <= s.max_price)))
         and ${mayHearSql('s.user_id', 'l.user_id')}
       order by s.user_id, s.created_at, s.id),
     stored as (
       insert into saved_search_matches (user_id, listing_id, search_id, search_name, matched_at)
       select user_id, listing_id, id, name, $3 from found
       on conflict (user_id, listing_id) do nothing
       returning user_id, search_id, search_name)
     select st.user_id, st.search_id, st.search_name, l.user_id as seller_id, l.title,
       s.q, s.author, s.genre, s.listing_type, s.condition, s.min_price, s.max_price
     from stored st join saved_searches s on s.id = st.search_id
       join book_listings l on l.id = $1`,
    [listingId, keys, at],
  );
}
