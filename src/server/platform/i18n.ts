import type { FastifyRequest } from 'fastify';
import { pickLanguage, type Language } from '@shared/constants';
import { lookup, translate, type TFunction, type TOptions } from '@shared/translator';
// The locale catalogues are data shared with the web app, so API errors use the very same texts.
import it from '../../web/locales/it.json';
import en from '../../web/locales/en.json';

const catalogues: Record<Language, Record<string, unknown>> = { it, en };

/** The request's language: an explicit X-Language header, else Accept-Language, else Italian. */
export function requestLanguage(request: Pick<FastifyRequest, 'headers'>): Language {
  const explicit = request.headers['x-language'];
  return pickLanguage(
    (Array.isArray(explicit) ? explicit[0] : explicit) ?? request.headers['accept-language'],
  );
}

/**
 * A locale key's text by the shared translator (`@shared/translator`), as the web app words it:
 * values, `count` (the language's plural form, `_zero` for 0), `context`. Text that is not a key
 * is returned as it is. (No fallback language: a test keeps both catalogues' keys the same.)
 */
export function t(language: Language, key: string, options?: TOptions | string): string {
  return translate(catalogues[language], language, key, options);
}

/** `t` in one language, for text shared with the web app (`notificationText`). */
export const fixedT =
  (language: Language): TFunction =>
  (key, options) =>
    t(language, key, options);

export function hasKey(key: string): boolean {
  return typeof lookup(catalogues.it, key) === 'string';
}
