/**
 * The web app's translator: the shared core (`@shared/translator`: lookup, interpolation, plurals,
 * context) with what a browser needs around it: the language choice (first supported candidate
 * of a detector, its region kept), catalogues loaded per language and lazy group, `exists`,
 * `getFixedT`, `changeLanguage` and the `languageChanged` event. Ours, not a library; React
 * reaches it through ./reactI18n.tsx. See docs/decisions/0029 and 0048.
 */
import {
  lookup,
  translate,
  type Catalogue,
  type DataTFunction,
  type TOptions,
} from '@shared/translator';
import type { LocaleKey, LocalePath } from './localeKeys';

export type { TOptions } from '@shared/translator';
export type { LocaleKey, LocalePath } from './localeKeys';

/**
 * `t`: the text of a key of the catalogue (a key it lacks fails the typecheck; keys built at
 * run time: ./localeKeys.ts). With `returnObjects`, a node of several texts or a list, whose shape
 * the caller states.
 */
export interface TFunction {
  (key: LocalePath, options: TOptions & { returnObjects: true }): unknown;
  (key: LocaleKey, options?: TOptions | string): string;
}

/**
 * The words of a key that arrives as data (a shared schema's message, a validator's answer, a
 * kind the server registers), which no type can name: a key the catalogue lacks reads as itself
 * (or as the default value), as `t` answers one. A key the code writes goes to `t` itself.
 */
export function dataText(t: TFunction, key: string, options?: TOptions | string): string {
  const anyKey: DataTFunction = t;
  return anyKey(key, options);
}

type Listener = (language: string) => void;

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

  /** The first candidate whose language is supported (its region kept), else the fallback. */
  const choose = (candidates: readonly string[]): string => {
    for (const c of candidates) {
      if (c && options.supported.includes(base(c))) return formatCode(c);
    }
    return options.fallback;
  };

  const translateIn = (language: string, key: string, opts?: TOptions | string) =>
    translate(catalogues.get(base(language)), language, key, opts);

  const emit = (event: string, language: string) =>
    listeners.get(event)?.forEach((listener) => listener(language));

  const i18n = {
    language: undefined as unknown as string,
    resolvedLanguage: undefined as string | undefined,
    isInitialized: false,
    /** Resolves once the first language's catalogue is there (React components wait on it). */
    ready: undefined as unknown as Promise<void>,
    t: ((key: string, opts?: TOptions | string) =>
      translateIn(i18n.language ?? options.fallback, key, opts)) as TFunction,
    getFixedT(language: string): TFunction {
      return (key: string, opts?: TOptions | string) => translateIn(language, key, opts);
    },
    /** Whether the catalogue has an entry at `key` (then a `LocaleKey`, for a key that is data). */
    exists(key: string): key is LocaleKey {
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

  // At start the detected language is set (and remembered) at once, its catalogue loaded, then
  // `languageChanged` is emitted.
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
