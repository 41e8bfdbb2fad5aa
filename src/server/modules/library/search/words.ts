import type { Genre, LibraryQuery } from '@shared/marketplace';
import type { Database } from '../../../db/client';
import { STOP_WORDS, unaccented } from '../stopwords';
import { Filters } from './clauses';
import { type Term, genreLexeme, genreTerms } from './genres';

/** The tsqueries of a search's words, as text (see wordsQuery), and its phrase normalized. */
export interface CompiledWords {
  match: string;
  title: string;
  titleAuthor: string;
  whole: string;
  phrase: string;
  /** The words of relevance's exact tiers: lower case, unaccented, letters and digits. */
  exact: string[];
}

/** A search with its words compiled. */
export type Search = LibraryQuery & { words?: CompiledWords };

/** The words of a search as typed (letters and digits; the SQL drops accents and case). */
export function searchWords(q: string | undefined): string[] {
  return (
    q
      ?.normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu)
      ?.slice(0, MAX_WORDS) ?? []
  );
}
const MAX_WORDS = 16;

/** How a search matches: its terms, whether words are prefixes, its words outside genre phrases. */
export interface MatchedWords {
  terms: Term[];
  prefix: boolean;
  /**
   * The words of relevance's exact tiers: those outside genre phrases ("giallo camilleri":
   * Camilleri), or the genre phrases' own when there are no others ("storia").
   */
  plain: string[];
  /** The genres its genre words mean (genres.ts), each once. */
  genres: Genre[];
}

const isStopWord = (w: string) => STOP_WORDS.has(unaccented(w.toLowerCase()));

/**
 * The words a search matches on, and how: its words without the stop words of either language,
 * each a prefix as well as a whole word (decision 0084); a genre phrase ("fantascienza", "romanzi
 * rosa") is one term, its words or its genre (decision 0090). A search of nothing but stop words
 * ("and her", "il") matches them as whole words: as prefixes they made GIN merge the postings of
 * every word starting with "and" or "her" (Anderson, Herbert…), 75 to 90 ms at a million
 * listings, for listings a reader typing "and her" did not ask for (decision 0086). The exact
 * phrase of relevance keeps every word.
 */
export function matchWords(words: string[]): MatchedWords {
  const kept = genreTerms(words).flatMap((t): Term[] => {
    if (t.genre) return [{ ...t, words: t.words.filter((w) => !isStopWord(w)) }];
    return isStopWord(t.words[0]) ? [] : [t];
  });
  const terms: Term[] = kept.length ? kept : words.map((w) => ({ words: [w] }));
  const plain = terms.flatMap((t) => (t.genre ? [] : t.words));
  return {
    terms,
    prefix: kept.length > 0,
    plain: plain.length ? plain : terms.flatMap((t) => t.words),
    genres: [...new Set(terms.flatMap((t) => (t.genre ? [t.genre] : [])))],
  };
}

/**
 * A tsquery matching every term. Each word matches as written (a prefix when `prefix`) or by its
 * Italian or English stem; `weights` keeps the matches in those parts of the listing (A title,
 * B author, C description: migration 0035). A genre phrase matches its words or, without
 * `weights`, the listings of its genre (their genre's lexeme, weight D: migration 0055). The
 * suffixes are fixed text, the words parameters.
 */
export function wordsQuery(
  f: Filters,
  terms: Term[],
  { prefix, weights = '' }: { prefix: boolean; weights?: '' | 'A' | 'AB' },
): string {
  const simple = prefix ? `:*${weights}` : weights ? `:${weights}` : '';
  const stem = weights ? `:${weights}` : '';
  const word = (w: string) => {
    const value = `immutable_unaccent(${f.param(w)})`;
    return (
      `(to_tsquery('simple', ${value} || '${simple}')` +
      ` || to_tsquery('italian', ${value} || '${stem}')` +
      ` || to_tsquery('english', ${value} || '${stem}'))`
    );
  };
  return terms
    .map((t) => {
      const text = t.words.map(word).join(' && ');
      return t.genre && !weights
        ? `((${text}) || ${f.param(`'${genreLexeme(t.genre)}'`)}::tsquery)`
        : `(${text})`;
    })
    .join(' && ');
}

/** SQL: the words of a text (lower case, unaccented) as relevance's exact tiers compare them. */
const wordsOf = (text: string) =>
  `string_to_array(trim(regexp_replace(${text}, '[^[:alnum:]]+', ' ', 'g')), ' ')`;

/** SQL: the words `words` as relevance's exact tiers compare them (CompiledWords.exact). */
const exactWords = (f: Filters, words: string[]) =>
  wordsOf(`lower(immutable_unaccent(${f.param(words.join(' '))}))`);

/** The columns of a listing that relevanceScore reads (besides search_vector). */
export const RANKING_COLUMNS = ['l.title_words', 'l.titles_words', 'l.author_words'];

/**
 * Relevance of a listing `l` (its title_words, titles_words, author_words and search_vector)
 * that matches the words, in tiers, each above every lower one. "Its titles" are the listing's
 * own and its work's in other languages (migration 0053): a copy under the title typed comes
 * first, then the same work's copies in other languages. Their words, and the author's, are
 * kept in the row (ranking_tokens, migration 0059): lower case, unaccented, each run of letters
 * and digits, a '\n' token between titles.
 * - 128: the exact phrase in its own title; 64: in another title of its work;
 * - 32: every word exactly (as written, accents and case aside) a word of the author's name or
 *   of its other spellings (author_spellings): "calvino" or "italo calvino" put Italo Calvino's
 *   books first, above a title it stems to (*Calvin and Hobbes*); "tolstoy" Lev Tolstoj's;
 * - 16: every word exactly a word of its own title or the author's name: "eco" puts Umberto Eco
 *   above *Principles of Economics*, which it only begins; 8: of any of its titles or the author;
 * - 4: every word in its titles (as a prefix, a whole word or a stem), or 2: in titles and author;
 * - 1: every word a whole word or a stem, not only a prefix;
 * - below 1: PostgreSQL's rank with title over author over description.
 * Ties by newest (the callers' order).
 */
export function relevanceScore(f: Filters, words: string[], compiled?: CompiledWords): string {
  const tsquery = (key: Exclude<keyof CompiledWords, 'exact'>, inline: () => string) =>
    compiled ? `${f.param(compiled[key])}::tsquery` : `(${inline()})`;
  const { terms: matched, prefix, plain } = matchWords(words);
  const exact = compiled ? `${f.param(compiled.exact)}::text[]` : exactWords(f, plain);
  const own = 'l.title_words';
  // Its titles, one a line: a phrase never spans two.
  const titles = 'coalesce(l.titles_words, l.title_words)';
  // The author's name and its other spellings (migration 0055): "tolstoy" is Lev Tolstoj's.
  const authorWords = 'l.author_words';
  const phraseIn = (tokens: string, phrase: string) =>
    `' ' || array_to_string(${tokens}, ' ') || ' ' like '% ' || ${phrase} || ' %'`;
  let phrase = '';
  if (words.length > 1) {
    const typed = compiled
      ? f.param(compiled.phrase)
      : `lower(immutable_unaccent(${f.param(words.join(' '))}))`;
    phrase = `case when ${phraseIn(own, typed)} then 128
                   when ${phraseIn(titles, typed)} then 64 else 0 end + `;
  }
  return `(${phrase}
    case when cardinality(${exact}) = 0 then 0
         when ${authorWords} @> ${exact} then 32
         when (${own} || ${authorWords}) @> ${exact} then 16
         when (${titles} || ${authorWords}) @> ${exact} then 8
         else 0 end
    + case when l.search_vector @@ ${tsquery('title', () => wordsQuery(f, matched, { prefix, weights: 'A' }))} then 4
         when l.search_vector @@ ${tsquery('titleAuthor', () => wordsQuery(f, matched, { prefix, weights: 'AB' }))} then 2
         else 0 end
    + case when l.search_vector @@ ${tsquery('whole', () => wordsQuery(f, matched, { prefix: false }))} then 1 else 0 end
    + ts_rank('{0.1, 0.2, 0.5, 1.0}', l.search_vector, ${tsquery('match', () => wordsQuery(f, matched, { prefix }))}, 32))`;
}

/**
 * The tsqueries of a search's words, worked out once (one round trip) so that the search's
 * queries carry them as values: PostgreSQL plans a literal tsquery far faster than a tree of
 * to_tsquery calls (about 20 ms of planning for three words, under load, before this).
 */
export async function compileWords(database: Database, words: string[]): Promise<CompiledWords> {
  const f = new Filters();
  const { terms: matched, prefix, plain } = matchWords(words);
  const [row] = await database.query<CompiledWords>(
    `select (${wordsQuery(f, matched, { prefix })})::text as match,
       (${wordsQuery(f, matched, { prefix, weights: 'A' })})::text as title,
       (${wordsQuery(f, matched, { prefix, weights: 'AB' })})::text as "titleAuthor",
       (${wordsQuery(f, matched, { prefix: false })})::text as whole,
       lower(immutable_unaccent(${f.param(words.join(' '))})) as phrase,
       ${exactWords(f, plain)} as exact`,
    f.params,
  );
  return row;
}
