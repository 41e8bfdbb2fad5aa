/**
 * The part of i18next the app uses, in about 2 KB instead of 16 (gzipped): one namespace, nested
 * keys, `{{value}}` interpolation (values not escaped: React escapes), plurals by
 * Intl.PluralRules with the `_zero` form for a count of 0, `context` (key_context, as the
 * notifications and e-mails use it), `defaultValue`, `returnObjects`,
 * `exists`, `getFixedT`, `changeLanguage` with a detector and a loader, and the
 * `languageChanged` event. The answers are i18next's for the same catalogue and options (see
 * translator.test.ts); `react-i18next` is served by ./reactI18n.tsx over this (vite.config.ts).
 */

type Catalogue = Record<string, unknown>;
type Listener = (language: string) => void;
export type TOptions = Record<string, unknown> & {
  count?: number;
  defaultValue?: unknown;
  returnObjects?: boolean;
};
export type TFunction = (key: string, options?: TOptions | string) => string;

export interface TranslatorOptions {
  supported: readonly string[];
  /** The language of a browser speaking none of the supported ones. */
  fallback: string;
  /** Candidates, best first (the stored choice, the browser's languages, <html lang>). */
  detect: () => readonly string[];
  /** Remembers an explicit or detected choice. */
  remember: (language: string) => void;
  /** The catalogue of a language (its core and the lazy groups asked for so far). */
  load: (language: string) => Promise<Catalogue>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !(v instanceof RegExp) && typeof v !== 'function';

function lookup(catalogue: Catalogue | undefined, key: string): unknown {
  if (!catalogue) return undefined;
  if (key in catalogue) return catalogue[key];
  const parts = key.split('.');
  let node: unknown = catalogue;
  for (let i = 0; i < parts.length; i++) {
    if (!isObject(node)) return undefined;
    // A key may itself contain dots ("a.b" inside "x"): try the longest remaining match first.
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

const interpolation = /\{\{(-?)\s*([^{}]+?)\s*\}\}/g;

function interpolate(text: string, data: Record<string, unknown>): string {
  if (!text.includes('{{')) return text;
  return text.replace(interpolation, (match, _unescaped: string, name: string) => {
    const value = valueAt(data, name);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(data, name) ? '' : match;
    return typeof value === 'string' ? value : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();
function pluralSuffix(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) {
    rules = new Intl.PluralRules(language);
    pluralRules.set(language, rules);
  }
  return `_${rules.select(count)}`;
}

function formatCode(code: string): string {
  const [lang, ...rest] = code.split('-');
  if (!rest.length) return code.toLowerCase();
  return [
    lang.toLowerCase(),
    ...rest.map((p) => (p.length === 2 ? p.toUpperCase() : p.length === 4 ? p : p.toLowerCase())),
  ].join('-');
}

export function createTranslator(options: TranslatorOptions) {
  const catalogues = new Map<string, Catalogue>();
  const loaded = new Set<string>();
  const loading = new Map<string, Promise<void>>();
  const listeners = new Map<string, Set<Listener>>();
  const base = (code: string) => code.split('-')[0].toLowerCase();

  /** i18next's getBestMatchFromCodes: the first candidate whose language is supported. */
  const choose = (candidates: readonly string[]): string => {
    for (const c of candidates) {
      if (c && options.supported.includes(base(c))) return formatCode(c);
    }
    return options.fallback;
  };

  const translate = (language: string, key: string, raw?: TOptions | string): string => {
    const opts: TOptions =
      typeof raw === 'string' ? { defaultValue: raw } : raw === undefined ? {} : raw;
    const code = base(language);
    const catalogue = catalogues.get(code);
    const count = typeof opts.count === 'number' ? opts.count : undefined;
    // i18next's order: key_context (with its plural forms first), then key (likewise).
    const context = typeof opts.context === 'string' && opts.context ? opts.context : undefined;
    const bases = context === undefined ? [key] : [`${key}_${context}`, key];
    let found: unknown;
    for (const b of bases) {
      const candidates = count === undefined ? [b] : [`${b}${pluralSuffix(code, count)}`, b];
      if (count === 0) candidates.unshift(`${b}_zero`);
      for (const k of candidates) {
        found = lookup(catalogue, k);
        if (found !== undefined && found !== null) break;
      }
      if (found !== undefined && found !== null) break;
    }
    if (found === null) found = undefined;
    if (found === undefined && 'defaultValue' in opts) found = opts.defaultValue;
    if (isObject(found))
      return opts.returnObjects
        ? (deepInterpolate(found, opts) as string)
        : `key '${key} (${language})' returned an object instead of string.`;
    if (found === undefined) return key;
    return typeof found === 'string' ? interpolate(found, opts) : (found as string);
  };

  const deepInterpolate = (node: Record<string, unknown>, opts: TOptions): unknown => {
    const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [] : {};
    for (const [k, v] of Object.entries(node))
      (copy as Record<string, unknown>)[k] =
        typeof v === 'string' ? interpolate(v, opts) : isObject(v) ? deepInterpolate(v, opts) : v;
    return copy;
  };

  const emit = (event: string, language: string) =>
    listeners.get(event)?.forEach((listener) => listener(language));

  const i18n = {
    language: undefined as unknown as string,
    resolvedLanguage: undefined as string | undefined,
    isInitialized: false,
    /** Resolves once the first language's catalogue is there (React components wait on it). */
    ready: undefined as unknown as Promise<void>,
    t: ((key: string, opts?: TOptions | string) =>
      translate(i18n.language ?? options.fallback, key, opts)) as TFunction,
    getFixedT(language: string): TFunction {
      return (key, opts) => translate(language, key, opts);
    },
    exists(key: string): boolean {
      const value = lookup(catalogues.get(base(i18n.language ?? options.fallback)), key);
      return value !== undefined && value !== null;
    },
    hasResourceBundle(language: string): boolean {
      return catalogues.has(base(language));
    },
    /** Whether a language's catalogue is being fetched (lazy groups asked meanwhile join it). */
    isLoading(language: string): boolean {
      return loading.has(base(language));
    },
    addResourceBundle(language: string, _ns: string, data: Catalogue): void {
      const code = base(language);
      catalogues.set(code, { ...catalogues.get(code), ...data });
    },
    async loadLanguages(language: string | readonly string[]): Promise<void> {
      const codes = (typeof language === 'string' ? [language] : language).map(base);
      await Promise.all(codes.map((code) => ensure(code)));
    },
    async changeLanguage(language?: string): Promise<TFunction> {
      const chosen = choose(language ? [language] : options.detect());
      await ensure(base(chosen));
      i18n.language = chosen;
      i18n.resolvedLanguage = base(chosen);
      options.remember(chosen);
      emit('languageChanged', chosen);
      return i18n.getFixedT(chosen);
    },
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return i18n;
    },
    off(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener);
      return i18n;
    },
  };

  const ensure = (code: string): Promise<void> => {
    if (loaded.has(code)) return Promise.resolve();
    let pending = loading.get(code);
    if (!pending) {
      pending = options.load(code).then(
        (data) => {
          // Lazy groups that arrived first are kept (merged under the core).
          catalogues.set(code, { ...data, ...catalogues.get(code) });
          loaded.add(code);
          loading.delete(code);
        },
        (err: unknown) => {
          loading.delete(code);
          throw err;
        },
      );
      loading.set(code, pending);
    }
    return pending;
  };

  // As i18next's init: the detected language is set (and remembered) at once, its catalogue
  // loaded, then `languageChanged` is emitted.
  const initial = choose(options.detect());
  i18n.language = initial;
  options.remember(initial);
  i18n.ready = ensure(base(initial)).then(
    () => {
      i18n.resolvedLanguage = base(i18n.language);
      i18n.isInitialized = true;
      emit('languageChanged', i18n.language);
    },
    (err: unknown) => {
      console.error(err);
      i18n.isInitialized = true;
    },
  );
  return i18n;
}

export type Translator = ReturnType<typeof createTranslator>;
