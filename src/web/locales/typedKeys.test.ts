import { describe, expect, expectTypeOf, it } from 'vitest';
import itCatalogue from './it.json';
import type enCatalogue from './en.json';
import { createTranslator, type TFunction } from '../lib/translator';
import type { LocaleKey, TextKeys } from '../lib/localeKeys';

// Checked by the typecheck (`tsc`), not only here: a `@ts-expect-error` line that stops being an
// error fails it, as does a key in one catalogue only.

type ItKeys = TextKeys<typeof itCatalogue>;
type EnKeys = TextKeys<typeof enCatalogue>;
/** Fails the typecheck naming the keys, when there are any. */
const noKeys = <Keys extends never>(): Keys[] => [];

/** The calls `t` takes and refuses, by type; run below against the Italian catalogue. */
function calls(t: TFunction, genre: 'fiction' | 'poetry', built: string) {
  return [
    t('nav.home'),
    // A plural is asked by its base key (the catalogue holds `_one` and `_other`).
    t('savedSearches.count', { count: 2, max: 20 }),
    // A key built from a union of known names.
    t(`genres.${genre}`),
    // @ts-expect-error a key the catalogue lacks
    t('no.such.key'),
    // @ts-expect-error a key built from any string (narrow it, or dataText for data)
    t(`genres.${built}`),
    // @ts-expect-error a node of several texts is not a text
    t('nav'),
    t('legal.cookies.tables.used.headers', { returnObjects: true }) as Record<string, string>,
  ];
}

describe('typed locale keys', () => {
  it('en.json and it.json have the same keys (by type)', () => {
    expect(noKeys<Exclude<ItKeys, EnKeys>>()).toEqual([]);
    expect(noKeys<Exclude<EnKeys, ItKeys>>()).toEqual([]);
    expectTypeOf<'nav.home'>().toMatchTypeOf<LocaleKey>();
  });

  it('type the calls that read a text, and a missing key reads as itself', async () => {
    const italian = createTranslator({
      supported: ['it'],
      fallback: 'it',
      detect: () => ['it'],
      remember: () => {},
      load: async () => itCatalogue,
    });
    await italian.ready;
    const [home, count, genre, missing, built, node, headers] = calls(
      italian.t,
      'poetry',
      'poetry',
    );
    expect([home, count, genre, built]).toEqual([
      'Home',
      '2 ricerche salvate su 20',
      'Poesia',
      'Poesia',
    ]);
    expect(missing).toBe('no.such.key');
    expect(node).toMatch(/returned an object/);
    expect(Object.keys(headers as object).length).toBeGreaterThan(1);
  });
});
