import { describe, expect, it } from 'vitest';
import { STOP_WORDS } from '../stopwords';
import { GENRE_WORDS, genreTerms } from './genres';
import { matchWords } from './words';

describe('genre words', () => {
  it('have a word that is not a stop word in every phrase, each phrase once', () => {
    const all = Object.values(GENRE_WORDS).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const phrase of all) {
      expect(phrase).toBe(phrase.toLowerCase().normalize('NFD').replace(/\p{M}/gu, ''));
      expect(
        phrase.split(' ').some((w) => !STOP_WORDS.has(w)),
        phrase,
      ).toBe(true);
    }
  });

  it('cut a search into terms, the longest phrase at each place', () => {
    expect(genreTerms(['Romanzi', 'rosa', 'Moccia'])).toEqual([
      { words: ['Romanzi', 'rosa'], genre: 'romance' },
      { words: ['Moccia'] },
    ]);
    expect(genreTerms(['il', 'nome', 'della', 'rosa'])).toEqual([
      { words: ['il'] },
      { words: ['nome'] },
      { words: ['della'] },
      { words: ['rosa'] },
    ]);
    expect(genreTerms(['science', 'fiction'])).toEqual([
      { words: ['science', 'fiction'], genre: 'sciFi' },
    ]);
  });

  it('leave the stop words out of a phrase, and name its genre once', () => {
    expect(matchWords(['libri', 'di', 'testo', 'manuale'])).toEqual({
      terms: [
        { words: ['libri', 'testo'], genre: 'textbook' },
        { words: ['manuale'], genre: 'textbook' },
      ],
      prefix: true,
      // No other words: the exact tiers take the genre phrases' own.
      plain: ['libri', 'testo', 'manuale'],
      genres: ['textbook'],
    });
    expect(matchWords(['il', 'giallo', 'Camilleri'])).toMatchObject({
      plain: ['Camilleri'],
      genres: ['mystery'],
    });
  });
});
