/**
 * Scaffale's translator core, ours (not a library), used by both sides: the web app's translator
 * (`src/web/lib/translator.ts`, which adds language choice, loading and events) and the server's
 * texts (`src/server/platform/i18n.ts`: API errors, e-mails, the notification digest, page
 * heads). One catalogue, nested keys (a key may itself hold dots), `{{value}}` interpolation
 * (values not escaped: React escapes, e-mails are plain text), plurals by Intl.PluralRules for
 * any language (`key_one`, `key_other`, ... with `key_zero` for a count of 0), `context`
 * (`key_context`), `defaultValue` and `returnObjects`. The catalogue format is i18next's JSON v4,
 * so translators' tools read it; see docs/decisions/0048-one-translator.md.
 */

export type Catalogue = Record<string, unknown>;
export type TOptions = Record<string, unknown> & {
  count?: number;
  /** `key_context` before `key`; several are tried in their order, then `key`. */
  context?: string | readonly string[];
  defaultValue?: unknown;
  returnObjects?: boolean;
};
/**
 * `t`: the text of a key. The server's takes any string; the web's takes the catalogue's keys
 * only (`Key`: src/web/lib/localeKeys.ts).
 */
export type TFunction<Key extends string = string> = (
  key: Key,
  options?: TOptions | string,
) => string;
/**
 * A `t` asked for keys that are data, which no type can check (a notification's type comes from
 * the server; a key the catalogue lacks reads as itself): the server's `t` or the web's.
 */
export type DataTFunction = TFunction<any>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !(v instanceof RegExp) && typeof v !== 'function';

/** The entry at a dotted key (a key may itself contain dots: the longest match wins). */
export function lookup(catalogue: Catalogue | undefined, key: string): unknown {
  if (!catalogue) return undefined;
  if (key in catalogue) return catalogue[key];
  const parts = key.split('.');
  let node: unknown = catalogue;
  for (let i = 0; i < parts.length; i++) {
    if (!isObject(node)) return undefined;
    let found = false;
    for (let j = parts.length; j > i; j--) {
      const joined = parts.slice(i, j).join('.');
      if (joined in node) {
        node = node[joined];
        i = j - 1;
        found = true;
        break;
      }
    }
    if (!found) return undefined;
  }
  return node;
}

const valueAt = (data: Record<string, unknown>, path: string): unknown => {
  if (path in data) return data[path];
  let node: unknown = data;
  for (const part of path.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
};

const placeholder = /\{\{(-?)\s*([^{}]+?)\s*\}\}/g;

/**
 * `{{name}}` replaced by data's value: a name given as undefined reads as nothing, a name not
 * given at all stays as written (so a forgotten value shows).
 */
export function interpolate(text: string, data: Record<string, unknown>): string {
  if (!text.includes('{{')) return text;
  return text.replace(placeholder, (match, _unescaped: string, name: string) => {
    const value = valueAt(data, name);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(data, name) ? '' : match;
    return typeof value === 'string' ? value : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();
/** `one`, `few`, `many`, `other`, ... for a count, by the language's CLDR rules. */
function pluralCategory(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    try {
      rules = new Intl.PluralRules(language);
    } catch {
      // A malformed tag from a browser: its language's rules.
      rules = new Intl.PluralRules(language.split('-')[0]);
    }
    pluralRules.set(language, rules);
  }
  return rules.select(count);
}

/**
 * The entry a key resolves to, or undefined: with `context`, `key_context` before `key` (with a
 * list of contexts, each in its order: the most specific first); with a
 * `count`, each tried as `_zero` (for 0), then the language's plural form, then `_other` (a
 * catalogue may lack a form its language has, e.g. Italian's `many` for a million), then bare.
 */
export function resolve(
  catalogue: Catalogue | undefined,
  language: string,
  key: string,
  options: TOptions = {},
): unknown {
  const { count, context } = options;
  const contexts = (typeof context === 'string' ? [context] : (context ?? [])).filter(Boolean);
  const bases = [...contexts.map((c) => `${key}_${c}`), key];
  for (const base of bases) {
    const candidates = [base];
    if (typeof count === 'number') {
      const form = `${base}_${pluralCategory(language, count)}`;
      candidates.unshift(...(count === 0 ? [`${base}_zero`] : []), form, `${base}_other`);
    }
    for (const candidate of candidates) {
      const found = lookup(catalogue, candidate);
      if (found !== undefined && found !== null) return found;
    }
  }
  return undefined;
}

/** A list or an object of texts, every text interpolated (`returnObjects`). */
const interpolateAll = (node: unknown, data: TOptions): unknown =>
  typeof node === 'string'
    ? interpolate(node, data)
    : Array.isArray(node)
      ? node.map((v) => interpolateAll(v, data))
      : isObject(node)
        ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, data)]))
        : node;

/**
 * The text of a key in a language's catalogue. A string option is the default value; a missing
 * key without one answers the key itself; an object answers itself (values interpolated) with
 * `returnObjects`, else a message saying so.
 */
export function translate(
  catalogue: Catalogue | undefined,
  language: string,
  key: string,
  raw?: TOptions | string,
): string {
  const options: TOptions =
    typeof raw === 'string' ? { defaultValue: raw } : raw === undefined ? {} : raw;
  let found = resolve(catalogue, language, key, options);
  if (found === undefined && 'defaultValue' in options) found = options.defaultValue;
  if (isObject(found))
    return options.returnObjects
      ? (interpolateAll(found, options) as string)
      : `key '${key} (${language})' returned an object instead of string.`;
  if (found === undefined) return key;
  return typeof found === 'string' ? interpolate(found, options) : (found as string);
}

/** All dotted keys of a nested catalogue (used by the locale-parity test). */
export function flattenKeys(catalogue: Catalogue, prefix = ''): string[] {
  return Object.entries(catalogue).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flattenKeys(v as Catalogue, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}
