import type { Database } from '../../../db/client';
import { searchWords } from './words';
import { GENRE_VOCABULARY } from './genres';

/** Edits (insertions, deletions, substitutions) between two words. */
export function editDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    for (let j = 1; j <= y.length; j++)
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[y.length];
}

/** Edits a word may be off by and still be corrected: one up to 4 letters, two from 5. */
const allowedEdits = (word: string) => ([...word].length <= 4 ? 1 : 2);

/**
 * Replaces each word of q that no title or author word starts with by the closest known word
 * within one or two edits: the nearest words by trigram distance (`search_words`, a KNN walk of
 * its GiST index, migration 0035) and the genre words (genres.ts), the fewest edits first; null
 * when nothing could be corrected.
 */
export async function correctTypos(database: Database, q: string): Promise<string | null> {
  const words = searchWords(q).slice(0, 8);
  if (!words.length) return null;
  const rows = await database.query<{ word: string; norm: string; known: boolean; near: string[] }>(
    `select q.word, q.norm,
       exists (select 1 from search_words s
               where s.word collate "C" >= q.norm
                 and s.word collate "C" < q.norm || chr(1114111)) as known,
       array(select s.word from search_words s order by s.word <-> q.norm limit 12) as near
     from (select w as word, lower(immutable_unaccent(w)) as norm, i
           from unnest($1::text[]) with ordinality as t(w, i)) as q
     order by q.i`,
    [words],
  );
  let changed = false;
  const fixed = rows.map((r) => {
    const genreWord = GENRE_VOCABULARY.some((w) => w.startsWith(r.norm));
    if (r.known || genreWord || [...r.norm].length < 3) return r.word;
    let best: string | null = null;
    let bestEdits = allowedEdits(r.norm) + 1;
    for (const candidate of [...r.near, ...GENRE_VOCABULARY]) {
      const edits = editDistance(r.norm, candidate);
      if (edits < bestEdits) {
        best = candidate;
        bestEdits = edits;
      }
    }
    if (!best) return r.word;
    changed = true;
    return best;
  });
  return changed ? fixed.join(' ') : null;
}
