import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import it_ from '../../locales/it.json';
import { alternativesTo, noResultsCase, suggestionWords } from './noResultsCase';

const text = (locale: typeof en, key: string, words: string) =>
  key
    .split('.')
    .reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], locale)
    ?.toString()
    .replace('{{words}}', words);

describe('the words of an empty result', () => {
  it('speaks of the words, never of filters, when only words were searched', () => {
    const c = noResultsCase('  gattopardo rosso ', false);
    expect(c).toEqual({
      text: 'library.empty.noResultsWords',
      typed: 'gattopardo rosso',
      clear: false,
    });
    expect(text(en, c.text, c.typed)).toBe('No book matches “gattopardo rosso” yet.');
    expect(text(it_, c.text, c.typed)).toBe(
      'Nessun libro corrisponde a “gattopardo rosso”, per ora.',
    );
    for (const locale of [en, it_]) expect(text(locale, c.text, c.typed)).not.toMatch(/filt/i);
  });

  it('speaks of both, and offers to clear the filters, with words and filters', () => {
    const c = noResultsCase('calvino', true);
    expect(c.clear).toBe(true);
    expect(text(en, c.text, c.typed)).toBe(
      'No book matches “calvino” with these filters. Try changing or clearing them.',
    );
  });

  it('speaks of the filters with filters alone (or blank words)', () => {
    expect(noResultsCase('', true).text).toBe('library.empty.noResultsText');
    expect(noResultsCase('   ', false)).toEqual({
      text: 'library.empty.noResultsText',
      typed: '',
      clear: true,
    });
  });
});

describe('did you mean', () => {
  it('offers the suggestions that are not the words themselves, at most three', () => {
    const items = ['Gattopardo', 'Il Gattopardo', 'Gattopardo rosso', 'Gatti', 'Gattini'].map(
      (text) => ({ kind: 'title', text }),
    );
    expect(alternativesTo(' gattopardo ', items, 3).map((s) => s.text)).toEqual([
      'Il Gattopardo',
      'Gattopardo rosso',
      'Gatti',
    ]);
    expect(alternativesTo('x', [], 3)).toEqual([]);
  });
});

describe('what did-you-mean asks for', () => {
  it('is the longest of several words, or the one word', () => {
    expect(suggestionWords(' calvino  gattopardo ')).toBe('gattopardo');
    expect(suggestionWords('barone xyz')).toBe('barone');
    expect(suggestionWords(' marcovaldo ')).toBe('marcovaldo');
    expect(suggestionWords('  ')).toBe('');
  });
});
