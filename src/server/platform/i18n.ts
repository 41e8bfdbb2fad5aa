import type { FastifyRequest } from 'fastify';
import { pickLanguage, type Language } from '@shared/constants';
import { translate } from '@shared/i18n';
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

/** Translates a locale key; text that is not a key is returned as it is. */
export function t(language: Language, key: string, vars?: Record<string, string | number>): string {
  return translate(catalogues[language], key, vars, catalogues.it) ?? key;
}

export function hasKey(key: string): boolean {
  return translate(catalogues.it, key) !== undefined;
}
