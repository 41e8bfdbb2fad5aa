import { describe, expect, it } from 'vitest';
import it_ from '../locales/it.json';
import en from '../locales/en.json';
import type { DataTFunction } from '@shared/translator';
import { createTranslator, type Translator } from './translator';

// The translator that ships (this file's module over @shared/translator), asserted on the
// strings a person reads.
const catalogues: Record<string, Record<string, unknown>> = { it: it_, en };

/** Every key of a catalogue, plural forms folded into their base key. */
function keysOf(node: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(node).flatMap(([k, v]) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? keysOf(v as Record<string, unknown>, `${prefix}${k}.`)
      : [`${prefix}${k.replace(/_(zero|one|two|few|many|other)$/, '')}`],
  );
}

/**
 * The text a key should read, written out by hand for Italian and English: `_zero` for 0 when
 * the catalogue has it, `_one` for 1, `_other` else; then the bare key; the values filled in, a
 * placeholder with no value left as written; a list is not a text; a key with no text is itself.
 */
function expected(
  catalogue: Record<string, unknown>,
  key: string,
  values: Record<string, unknown>,
): string {
  const at = (k: string) =>
    k
      .split('.')
      .reduce<unknown>((n, p) => (n as Record<string, unknown> | undefined)?.[p], catalogue);
  const count = values.count as number | undefined;
  const text =
    (count === 0 ? at(`${key}_zero`) : undefined) ??
    (count === undefined ? undefined : at(`${key}_${count === 1 ? 'one' : 'other'}`)) ??
    at(key);
  if (text === undefined) return key;
  if (typeof text !== 'string')
    return `key '${key} (${values.language})' returned an object instead of string.`;
  return text.replace(/\{\{(\w+)\}\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}

/** `t` asked for keys as data: these tests read every key, and some no catalogue of ours has. */
const anyKey = (ours: Translator): DataTFunction => ours.t;

async function translator(language: string, candidates: string[] = [language]) {
  const remembered: string[] = [];
  const ours = createTranslator({
    supported: ['it', 'en'],
    fallback: 'it',
    detect: () => candidates,
    remember: (l) => remembered.push(l),
    load: async (l) => catalogues[l],
  });
  await ours.ready;
  return { ours, remembered };
}

describe('translator', () => {
  for (const language of ['it', 'en']) {
    it(`reads every ${language} key, with counts and values`, async () => {
      const { ours } = await translator(language);
      const keys = [...new Set(keysOf(catalogues[language]))];
      expect(keys.length).toBeGreaterThan(500);
      for (const key of keys) {
        for (const count of [undefined, 0, 1, 2, 25]) {
          const values: Record<string, unknown> = { name: 'Anna', date: '1 maggio', n: 3 };
          if (count !== undefined) values.count = count;
          expect([key, count, anyKey(ours)(key, values)]).toEqual([
            key,
            count,
            expected(catalogues[language], key, { ...values, language }),
          ]);
        }
        expect(anyKey(ours)(key)).toEqual(expected(catalogues[language], key, { language }));
        expect([key, ours.exists(key)]).toEqual([
          key,
          expected(catalogues[language], key, {}) !== key,
        ]);
      }
    });
  }

  it('words plurals and counts in Italian and English', async () => {
    const { ours } = await translator('it');
    const comment = (count: number) =>
      ours.t('notifications.types.community.comment', { count, actor: 'Anna' });
    expect([0, 1, 2, 25].map(comment)).toEqual([
      'Anna ha commentato il tuo post',
      "Anna e un'altra persona hanno commentato il tuo post",
      'Anna e altre 2 persone hanno commentato il tuo post',
      'Anna e altre 25 persone hanno commentato il tuo post',
    ]);
    expect([0, 1, 25].map((count) => ours.t('notifications.bell', { count }))).toEqual([
      'Notifiche',
      'Notifiche, 1 da leggere',
      'Notifiche, 25 da leggere',
    ]);
    // No `_zero` form: 0 takes the language's form for 0 (`other` in both languages).
    expect(ours.t('notifications.email.subject', { count: 0 })).toBe(
      'Hai 0 nuove notifiche su Scaffale',
    );
    await ours.changeLanguage('en');
    expect([0, 1, 2, 25].map(comment)).toEqual([
      'Anna commented on your post',
      'Anna and 1 other commented on your post',
      'Anna and 2 others commented on your post',
      'Anna and 25 others commented on your post',
    ]);
    expect([0, 1, 2].map((count) => ours.t('notifications.email.subject', { count }))).toEqual([
      'You have 0 new notifications on Scaffale',
      'You have a new notification on Scaffale',
      'You have 2 new notifications on Scaffale',
    ]);
  });

  it('handles objects, defaults, missing keys and values', async () => {
    const { ours } = await translator('it');
    const cases: Array<[string, Record<string, unknown> | undefined, unknown]> = [
      [
        'sell.quickTrade',
        { returnObjects: true, title: 'Il Gattopardo' },
        { submit: 'Proponi in scambio', selected: 'Selezionato: Il Gattopardo' },
      ],
      [
        'legal.privacy.sections.data.body',
        { returnObjects: true },
        ['Raccogliamo solo i dati necessari per far funzionare Scaffale:'],
      ],
      ['legal', undefined, "key 'legal (it)' returned an object instead of string."],
      ['nope.missing', undefined, 'nope.missing'],
      ['nope.missing', { defaultValue: 'fallback {{x}}', x: 1 }, 'fallback 1'],
      ['moderation.kinds.unknownKind', { defaultValue: 'unknownKind' }, 'unknownKind'],
      // A value not given stays as written; a value given as undefined reads as nothing.
      ['bookDetail.memberSince', {}, 'Membro dal giorno {{date}}'],
      ['bookDetail.memberSince', { date: undefined }, 'Membro dal giorno '],
      ['bookDetail.memberSince', { date: '1 maggio' }, 'Membro dal giorno 1 maggio'],
      // Context, as notifications use it (moderation.action_hide), with and without a match.
      [
        'notifications.types.moderation.action',
        { context: 'hide', title: 'Un post' },
        "I moderatori hanno rimosso «Un post»: l'e-mail che ti abbiamo inviato ne spiega i motivi",
      ],
      [
        'notifications.types.moderation.action',
        { context: 'unknown', title: 'Un post' },
        'I moderatori hanno preso una decisione sul tuo account',
      ],
      [
        'notifications.types.moderation.action',
        { context: '' },
        'I moderatori hanno preso una decisione sul tuo account',
      ],
      // Several contexts: the first the catalogue has, then the key itself.
      [
        'notifications.types.moderation.action',
        { context: ['unknown', 'hide'], title: 'Un post' },
        "I moderatori hanno rimosso «Un post»: l'e-mail che ti abbiamo inviato ne spiega i motivi",
      ],
      [
        'notifications.types.moderation.action',
        { context: ['unknown', 'other'] },
        'I moderatori hanno preso una decisione sul tuo account',
      ],
      [
        'notifications.types.offer.answered',
        { context: 'accepted', amount: '15.00 EUR' },
        '{{actor}} ha accettato la tua offerta di 15.00 EUR per «{{title}}»',
      ],
    ];
    for (const [key, options, text] of cases)
      expect([key, options, anyKey(ours)(key, options)]).toEqual([key, options, text]);
  });

  it("follows any language's plural rules, `_other` for a form the catalogue lacks", async () => {
    const ours = createTranslator({
      supported: ['pl'],
      fallback: 'pl',
      detect: () => ['pl'],
      remember: () => {},
      load: async () => ({
        books_one: '{{count}} książka',
        books_few: '{{count}} książki',
        books_other: '{{count}} książek',
      }),
    });
    await ours.ready;
    // Polish: 1 is `one`, 3 `few`, 5 `many` (not in this catalogue), 22 `few`.
    expect([1, 3, 5, 22].map((count) => anyKey(ours)('books', { count }))).toEqual([
      '1 książka',
      '3 książki',
      '5 książek',
      '22 książki',
    ]);
  });

  it('picks the first supported candidate, keeps its region, remembers it', async () => {
    const { ours, remembered } = await translator('it', ['fr-FR', 'en-us', 'it']);
    expect(ours.language).toBe('en-US');
    expect(ours.resolvedLanguage).toBe('en');
    expect(remembered).toEqual(['en-US']);
    const none = await translator('it', ['de']);
    expect(none.ours.language).toBe('it');
  });

  it('changes language after loading it and tells the listeners', async () => {
    const { ours, remembered } = await translator('it');
    const heard: string[] = [];
    ours.on('languageChanged', (l) => heard.push(l));
    await ours.changeLanguage('en');
    expect(heard).toEqual(['en']);
    expect(ours.t('nav.library')).toBe('Library');
    expect(remembered.at(-1)).toBe('en');
    expect(ours.getFixedT('it')('nav.library')).toBe('Biblioteca');
  });
});
