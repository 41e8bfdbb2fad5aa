/**
 * The keys of the catalogue, as types: `t()` takes a `LocaleKey` only, so a key the catalogue
 * lacks fails the typecheck. Read from it.json; en.json has the same keys (both checked by
 * locales/typedKeys.test.ts). Types only: nothing here reaches the bundle.
 *
 * A key built at run time checks when its parts are unions of known names:
 * `` t(`genres.${genre}`) `` with `genre: Genre` is a union of keys. A part typed `string` does
 * not: narrow it to the names the catalogue has (a union type, a `Record<Name, LocaleKey>`, a
 * lookup in a list of names), or ask `i18n.exists(key)`, which narrows it. A key that arrives
 * as data (a shared schema's message, a kind the server registers) is read by
 * `dataText(t, key)` (./translator.ts): the one call that names no key the type can check.
 */
import type itCatalogue from '../locales/it.json';

type Catalogue = typeof itCatalogue;

/** Every dotted path of a tree to its texts (and lists); with `Nodes`, to its inner nodes too. */
type Paths<T, Nodes extends boolean> = {
  [K in keyof T & string]: T[K] extends string | readonly unknown[]
    ? K
    : (Nodes extends true ? K : never) | `${K}.${Paths<T[K], Nodes>}`;
}[keyof T & string];

/** The key a plural form is asked by: `count_one` and `count_other` are `t('count', { count })`. */
type PluralBase<K extends string> =
  K extends `${infer B}_${'zero' | 'one' | 'two' | 'few' | 'many' | 'other'}` ? B : never;

/** The key of every text (or list) of a catalogue, plural forms as written (`count_one`). */
export type TextKeys<C> = Paths<C, false>;

type Texts = TextKeys<Catalogue>;

/** A key of a text (or a list) of the catalogue, a plural's base key included. */
export type LocaleKey = Texts | PluralBase<Texts>;

/** Any path of the catalogue, a node of several texts included (`t(key, { returnObjects: true })`). */
export type LocalePath = LocaleKey | Paths<Catalogue, true>;
