import type { Genre } from '@shared/marketplace';
import { unaccented } from '../stopwords';

/**
 * The words that mean a genre, in Italian and English (lower case, unaccented, words separated
 * by a space): its names on the genre filter and their common synonyms and plurals. A search's
 * word or phrase among them matches the listings of that genre as well as the listings with the
 * words (decision 0090). Words that are also common in titles and mean something else alone are
 * left out, or listed only in a phrase: "rosa" (*Il nome della rosa*) only as "romanzi rosa",
 * "commedia" (*La Divina Commedia*) not at all.
 */
export const GENRE_WORDS: Readonly<Record<Exclude<Genre, 'other'>, readonly string[]>> = {
  fiction: ['narrativa', 'fiction', 'romanzo', 'romanzi', 'novel', 'novels'],
  nonFiction: ['saggistica', 'saggio', 'saggi', 'non fiction', 'nonfiction'],
  mystery: [
    'giallo',
    'gialli',
    'romanzo giallo',
    'romanzi gialli',
    'poliziesco',
    'polizieschi',
    'noir',
    'thriller',
    'thrillers',
    'mystery',
    'mysteries',
    'crime',
    'crime fiction',
    'detective stories',
  ],
  romance: [
    'romanzo rosa',
    'romanzi rosa',
    'romanzo d amore',
    'romanzi d amore',
    'romance',
    'romances',
    'love story',
    'love stories',
  ],
  sciFi: [
    'fantascienza',
    'fantascientifico',
    'fantascientifici',
    'science fiction',
    'sci fi',
    'scifi',
  ],
  fantasy: ['fantasy'],
  biography: [
    'biografia',
    'biografie',
    'autobiografia',
    'autobiografie',
    'biography',
    'biographies',
    'autobiography',
    'memoir',
    'memoirs',
  ],
  history: ['storia', 'history', 'libri di storia', 'history books'],
  selfHelp: ['crescita personale', 'self help', 'selfhelp', 'auto aiuto', 'autoaiuto'],
  business: ['economia', 'business', 'finanza', 'finance', 'economics', 'management'],
  academic: ['accademico', 'accademici', 'academic'],
  children: [
    'per bambini',
    'libri per bambini',
    'bambini',
    'children',
    'children s books',
    'children s',
    'kids',
    'fiabe',
    'fairy tales',
  ],
  youngAdult: ['young adult', 'ya fiction', 'teen fiction'],
  poetry: ['poesia', 'poesie', 'poetry', 'poems', 'poem'],
  drama: ['teatro', 'drama', 'dramma', 'drammi', 'plays', 'theatre', 'theater'],
  textbook: [
    'libri di testo',
    'libro di testo',
    'testi scolastici',
    'libri scolastici',
    'manuale',
    'manuali',
    'textbook',
    'textbooks',
  ],
  comics: [
    'fumetti',
    'fumetto',
    'comics',
    'comic',
    'comic books',
    'graphic novel',
    'graphic novels',
    'manga',
  ],
};

/** The lexeme that stands for a genre in a listing's search_vector (migration 0055). */
export const genreLexeme = (genre: Genre) => `#${genre.toLowerCase()}`;

/** Each genre phrase's words, longest phrases first (so "romanzi rosa" wins over "romanzi"). */
const PHRASES: Array<{ words: string[]; genre: Genre }> = Object.entries(GENRE_WORDS)
  .flatMap(([genre, phrases]) =>
    phrases.map((p) => ({ words: p.split(' '), genre: genre as Genre })),
  )
  .sort((a, b) => b.words.length - a.words.length);

/** Every single word of the genre phrases, for typo correction. */
export const GENRE_VOCABULARY: readonly string[] = [
  ...new Set(PHRASES.flatMap((p) => p.words).filter((w) => w.length >= 3)),
];

/** A part of a search: words that must all match, or a genre phrase (its words, or the genre). */
export interface Term {
  words: string[];
  genre?: Genre;
}

/**
 * A search's words cut into terms: each genre phrase found (the longest at each place, compared
 * in lower case without accents) is one term with its genre; every other word a term of its own.
 */
export function genreTerms(words: string[]): Term[] {
  const norm = words.map((w) => unaccented(w.toLowerCase()));
  const terms: Term[] = [];
  for (let i = 0; i < words.length;) {
    const found = PHRASES.find((p) => p.words.every((w, j) => norm[i + j] === w));
    if (found) {
      terms.push({ words: words.slice(i, i + found.words.length), genre: found.genre });
      i += found.words.length;
    } else {
      terms.push({ words: [words[i]] });
      i++;
    }
  }
  return terms;
}
