import { createInstance } from 'i18next';
import { describe, expect, it } from 'vitest';
import it_ from '../locales/it.json';
import en from '../locales/en.json';
import { createTranslator } from './translator';

const catalogues: Record<string, Record<string, unknown>> = { it: it_, en };

/** Every key of a catalogue, plural forms folded into their base key. */
function keysOf(node: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(node).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

async function both(language: string, candidates: string[] = [language]) {
  const reference = createInstance();
  await reference.init({
    lng: language,
    supportedLngs: ['it', 'en'],
    fallbackLng: { en: [], default: ['it'] },
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    interpolation: { escapeValue: false },
    resources: { it: { translation: it_ }, en: { translation: en } },
  });
  const remembered: string[] = [];
  const ours = createTranslator({
    supported: ['it', 'en'],
    fallback: 'it',
    detect: () => candidates,
    remember: (l) => remembered.push(l),
    load: async (l) => catalogues[l],
  });
  await ours.ready;
  return { reference, ours, remembered };
}

describe('translator', () => {
  for (const language of ['it', 'en']) {
    it(`answers as i18next for every ${language} key, with counts and values`, async () => {
      const { reference, ours } = await both(language);
      const keys = [...new Set(keysOf(catalogues[language]))];
      expect(keys.length).toBeGreaterThan(500);
      for (const key of keys) {
        for (const count of [undefined, 0, 1, 2, 25]) {
          const values: Record<string, unknown> = { name: 'Anna', date: '1 maggio', n: 3 };
          if (count !== undefined) values.count = count;
          expect([key, count, ours.t(key, values)]).toEqual([
            key,
            count,
            reference.t(key, values as never),
          ]);
        }
        expect(ours.t(key)).toEqual(reference.t(key));
        expect([key, ours.exists(key)]).toEqual([key, reference.exists(key)]);
      }
    });
  }

  it('handles objects, defaults, missing keys and values as i18next', async () => {
    const { reference, ours } = await both('it');
    const cases: Array<[string, Record<string, unknown> | undefined]> = [
      ['legal.cookies.tables.technical.rows', { returnObjects: true }],
      ['legal.cookies.tables.technical.headers', { returnObjects: true }],
      ['legal', undefined],
      ['nope.missing', undefined],
      ['nope.missing', { defaultValue: 'fallback {{x}}', x: 1 }],
      ['moderation.kinds.unknownKind', { defaultValue: 'unknownKind' }],
      ['bookDetail.memberSince', {}],
      ['bookDetail.memberSince', { date: undefined }],
      // Context, as notifications use it (moderation.action_hide), with and without a match.
      ['notifications.types.moderation.action', { context: 'hide', title: 'Un post' }],
      ['notifications.types.moderation.action', { context: 'unknown', title: 'Un post' }],
      ['notifications.types.moderation.action', { context: '' }],
      ['notifications.types.offer.answered', { context: 'accepted', amount: '15.00 EUR' }],
    ];
    for (const [key, options] of cases)
      expect(ours.t(key, options)).toEqual(reference.t(key, options as never));
  });

  it('picks the first supported candidate, keeps its region, remembers it', async () => {
    const { ours, remembered } = await both('it', ['fr-FR', 'en-us', 'it']);
    expect(ours.language).toBe('en-US');
    expect(ours.resolvedLanguage).toBe('en');
    expect(remembered).toEqual(['en-US']);
    const none = await both('it', ['de']);
    expect(none.ours.language).toBe('it');
  });

  it('changes language after loading it and tells the listeners', async () => {
    const { ours, remembered } = await both('it');
    const heard: string[] = [];
    ours.on('languageChanged', (l) => heard.push(l));
    await ours.changeLanguage('en');
    expect(heard).toEqual(['en']);
    expect(ours.t('nav.home')).toBe((en as { nav: { home: string } }).nav.home);
    expect(remembered.at(-1)).toBe('en');
    expect(ours.getFixedT('it')('nav.home')).toBe(
      (it_ as unknown as { nav: { home: string } }).nav.home,
    );
  });
});
