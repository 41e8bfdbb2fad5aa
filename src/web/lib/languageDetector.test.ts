import { describe, expect, it } from 'vitest';
import { languageDetector, type LanguageSources } from './languageDetector';

function sources(stored: string | null, languages: string[], html: string | null) {
  const data = new Map<string, string>();
  if (stored !== null) data.set('lang', stored);
  const env: LanguageSources = {
    storage: {
      getItem: (k) => data.get(k) ?? null,
      setItem: (k, v) => void data.set(k, v),
    },
    navigator: { languages, language: languages[0] },
    htmlLang: () => html,
  };
  return { env, data };
}

describe('languageDetector', () => {
  it('puts the stored choice first, then the browser languages, then <html lang>', () => {
    const { env } = sources('en', ['it-IT', 'fr'], 'it');
    expect(languageDetector('lang', () => env).detect()).toEqual([
      'en',
      'it-IT',
      'fr',
      'it-IT',
      'it',
    ]);
  });

  it('falls back to the browser, then to <html lang>, when nothing is stored', () => {
    expect(languageDetector('lang', () => sources(null, ['fr-FR'], 'it').env).detect()).toEqual([
      'fr-FR',
      'fr-FR',
      'it',
    ]);
    expect(languageDetector('lang', () => sources(null, [], 'it').env).detect()).toEqual(['it']);
  });

  it('ignores values that are not language codes', () => {
    const { env } = sources('" onmouseover="x()', ['<b>x</b>', 'en'], null);
    expect(languageDetector('lang', () => env).detect()).toEqual(['en']);
  });

  it('stores the chosen language, and survives blocked storage', () => {
    const { env, data } = sources(null, [], null);
    languageDetector('lang', () => env).cacheUserLanguage?.('en');
    expect(data.get('lang')).toBe('en');
    const blocked: LanguageSources = {
      storage: {
        getItem: () => {
          throw new Error('blocked');
        },
        setItem: () => {
          throw new Error('blocked');
        },
      },
      navigator: { languages: ['en'] },
      htmlLang: () => null,
    };
    const detector = languageDetector('lang', () => blocked);
    expect(detector.detect()).toEqual(['en']);
    expect(() => detector.cacheUserLanguage?.('it')).not.toThrow();
  });
});
