import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CONSENT_COOKIE_NAME, type Language } from '@shared/constants';
import { requestLanguage } from '../i18n';
import { sendNotFound } from '../errors';
import { REVALIDATE_CACHE_CONTROL, etagOf, matchesIfNoneMatch } from '../http-cache';
import { escapeHtml } from '../mail';
import { loadTemplate } from './template';
import { consentBanner, consentStylesheets } from './consent';

/** Paths that are never the single-page app: a miss there is a plain 404, not HTML. */
const NOT_THE_APP = /^\/(?:api|assets|uploads)(?:[/?]|$)/;

/**
 * The tags of one page's <head> (title, description, canonical URL, social tags, JSON-LD) and
 * its status: 404 for a listing or member that does not exist. Written by the seo module
 * (modules/seo/head.ts), which knows the domains; the platform only serves the page.
 */
export type PageHeads = (
  path: string,
  language: Language,
) => Promise<{ status: 200 | 404; head: string }>;

/**
 * Every GET that no other route answers is the single-page app: index.html with the page's own
 * head written into it, so crawlers and link previews see the listing or profile without running
 * scripts, and the cookie banner for a first visit. A page whose head says 404 answers 404 (the
 * app still renders its own not-found panel).
 */
export async function registerSpa(
  app: FastifyInstance,
  deps: { webDir: string; pageHeads: PageHeads },
): Promise<(request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> {
  const template = loadTemplate(join(deps.webDir, 'index.html'));
  const consentCss = consentStylesheets(deps.webDir)
    .map((file) => `\n    <link rel="stylesheet" crossorigin href="/${escapeHtml(file)}">`)
    .join('');

  const serve = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url;
    if (NOT_THE_APP.test(url)) return sendNotFound(request, reply);
    const path = normalisePath(url);
    const language = requestLanguage(request);
    const head = await deps.pageHeads(path, language);
    // A visitor without the consent tool's cookie gets the banner in the page (see consent.ts).
    const asksConsent = !request.cookies?.[CONSENT_COOKIE_NAME];
    const html = template.render(
      head.head + (asksConsent ? consentCss : ''),
      language,
      asksConsent ? consentBanner(language) : undefined,
    );
    const etag = etagOf(html);
    reply
      .header('cache-control', REVALIDATE_CACHE_CONTROL)
      .header('etag', etag)
      .header('vary', 'accept-language, cookie, accept-encoding')
      .type('text/html; charset=utf-8');
    if (head.status === 200 && matchesIfNoneMatch(request, etag)) return reply.code(304).send();
    return reply.code(head.status).send(html);
  };

  app.get('/*', { schema: { hide: true } }, serve);
  return serve;
}

/** The path without query, fragment or trailing slash ('/' stays '/'). */
function normalisePath(url: string): string {
  const path = url.split(/[?#]/, 1)[0].replace(/\/{2,}/g, '/');
  return path.length > 1 ? path.replace(/\/+$/, '') : '/';
}
