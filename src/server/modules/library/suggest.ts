import { SUGGESTIONS_MAX } from '@shared/marketplaceConstants';
import { suggestQuerySchema } from '@shared/marketplace';
import { suggestionsSchema, type Suggestions } from '@shared/marketplaceAnswers';
import type { Database } from '../../db/client';
import type { ModuleApp } from '../../platform/module';
import { publicRead } from '../../platform/http-cache';
import { errorSchema } from '../../platform/errors';
import { libraryListing, notBlocked } from '../../platform/moderation';

/**
 * Word starts read (twice: those that begin the term, and any) before confirming their terms
 * on the listings: a term whose listings are all sold or hidden is skipped, so a few times
 * SUGGESTIONS_MAX keeps the list full without reading every match of a short prefix.
 */
const CANDIDATES = 4 * SUGGESTIONS_MAX;
/** Listings counted per term to rank it (more copies first): enough to tell popular from rare. */
const COUNTED = 20;

/** What was typed, as matched: spaces collapsed; empty when nothing is left. */
export const typedText = (q: string) => q.normalize('NFKC').replace(/\s+/g, ' ').trim();

/**
 * Titles and authors of available listings in which what was typed starts a word (accents and
 * case ignored): titles or authors that start with it first, then those with more available
 * listings, then the shorter. Candidates come from the word starts of listing_terms (migration
 * 0037); each is confirmed, and counted, on the listings' partial title or author index
 * under the library's visibility rule and, for a viewer with blocks, without the members a
 * block stands between them.
 */
export async function suggest(
  database: Database,
  q: string,
  apartFrom?: string,
): Promise<Suggestions> {
  const typed = typedText(q);
  if (!typed) return { items: [] };
  // Normalised by the database's own unaccent first: the index ranges below need constants (a
  // bound computed inside the query makes the planner walk the whole index and filter).
  const [{ norm }] = await database.query<{ norm: string }>(
    'select lower(immutable_unaccent($1::text)) as norm',
    [typed],
  );
  // Twice the answer's size: the same title in other cases or accents is dropped below.
  const params: unknown[] = [norm, CANDIDATES, COUNTED, 2 * SUGGESTIONS_MAX, `${norm}\u{10FFFF}`];
  const listed = (column: string) => `(select count(*) from (
      select 1 from book_listings l
      where l.status = 'available' and l.${column} = c.text and ${libraryListing('l')}
        ${apartFrom ? `and ${notBlocked('$6', 'l.user_id')}` : ''}
      limit $3) x)`;
  if (apartFrom) params.push(apartFrom);
  // Where a word starts with what was typed: ranges of listing_term_starts (migration 0037) in
  // index order, the titles and authors starting with it apart so that they are never crowded out.
  const range = `s.start collate "C" >= $1 and s.start collate "C" < $5`;
  const rows = await database.query<{ kind: 'title' | 'author'; text: string; norm: string }>(
    `with hits as (
       (select s.term_id, true as starts from listing_term_starts s
        where s.at_start and ${range} order by s.start collate "C" limit $2)
       union all
       (select s.term_id, false from listing_term_starts s
        where ${range} order by s.start collate "C" limit $2)),
     candidates as materialized (
       -- each term by its key (a join would read the whole table for so few rows)
       select t.kind, t.text, t.norm, h.starts
       from (select term_id, bool_or(starts) as starts from hits group by term_id) h
         cross join lateral (select * from listing_terms t where t.id = h.term_id) t),
     counted as materialized (
       select c.*, case when c.kind = 'title' then ${listed('title')}
         else ${listed('author')} end as n
       from candidates c)
     select kind, text, norm from counted where n > 0
     order by starts desc, n desc, length(norm), norm, kind desc
     limit $4`,
    params,
  );
  // One suggestion per way of writing a title or author (case and accents aside).
  const seen = new Set<string>();
  const items: Suggestions['items'] = [];
  for (const r of rows) {
    const key = `${r.kind} ${r.norm}`;
    if (seen.has(key)) continue;
    if (items.length === SUGGESTIONS_MAX) break;
    seen.add(key);
    items.push({ kind: r.kind, text: r.text });
  }
  return { items };
}

/** GET /api/listings/suggest, registered by the library module (routes.ts). */
export function registerSuggestions(
  app: ModuleApp,
  database: Database,
  apartFrom: (userId: string | undefined) => Promise<string | undefined>,
): void {
  app.get(
    '/api/listings/suggest',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: 'Suggestions as you type: titles and authors of available listings',
        description:
          `Up to ${SUGGESTIONS_MAX} distinct titles and authors of available listings in which q ` +
          'starts a word, ignoring accents and case: those starting with q first, then those with ' +
          'more available listings. An empty q answers no items. Cached like /api/listings ' +
          '(anonymous answers may be up to 2 s old); a signed-in member does not get the ' +
          'listings of members a block stands between them.',
        querystring: suggestQuerySchema,
        response: { 200: suggestionsSchema, 400: errorSchema },
      },
    },
    async (request, reply) => {
      const { q } = request.query;
      if (request.user) return suggest(database, q, await apartFrom(request.user.id));
      const body = await app.publicReads.get(`suggest ${typedText(q)}`, async () =>
        JSON.stringify(await suggest(database, q)),
      );
      // Kept encoded, as /api/listings does: the type is the schema's.
      return reply.type('application/json; charset=utf-8').send(body as unknown as Suggestions);
    },
  );
}
