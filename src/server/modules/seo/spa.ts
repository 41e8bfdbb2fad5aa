import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client';
import { CONSENT_COOKIE_NAME } from '@shared/constants';
import { requestLanguage } from '../../platform/i18n';
import { sendNotFound } from '../../platform/errors';
import { REVALIDATE_CACHE_CONTROL, etagOf, matchesIfNoneMatch } from '../../platform/http-cache';
import { describePage, renderHead } from './head';
import { loadTemplate } from './template';
import { consentBanner, consentStylesheets } from './consent';
import { escapeHtml } from './html';

/** Paths that are never the single-page app: a miss there is a plain 404, not HTML. */
const NOT_THE_APP = /^\/(?:api|assets|uploads)(?:[/?]|$)/;

/**
 * Every GET that no other route answers is the single-page app: index.html with the page's own
 * title, description, canonical URL, social tags and JSON-LD written into its head, so crawlers
 * and link previews see the listing or profile without running scripts. A listing or member that
 * does not exist answers 404 (the app still renders its own not-found panel).
 */
export async function registerSpa(
  app: FastifyInstance,
  deps: { webDir: string; database: Database; publicUrl: string },
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
    const head = await describePage(path, {
      database: deps.database,
      publicUrl: deps.publicUrl,
      language,
    });
    // A visitor without the consent tool's cookie gets the banner in the page (see consent.ts).
    const asksConsent = !request.cookies?.[CONSENT_COOKIE_NAME];
    const html = template.render(
      renderHead(head, language) + (asksConsent ? consentCss : ''),
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
