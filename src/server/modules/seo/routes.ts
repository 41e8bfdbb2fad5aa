import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Module } from '../../platform/module';
import { sendNotFound } from '../../platform/errors';
import {
  SITEMAP_KINDS,
  sitemapIndex,
  sitemapPage,
  staticSitemap,
  type SitemapKind,
} from './sitemap';

/** Crawlers may re-read these hourly; a CDN keeps them as long. */
const CRAWLER_CACHE_CONTROL = 'public, max-age=3600';
const XML = 'application/xml; charset=utf-8';

/**
 * What crawlers may read: every public page and the API reads a page needs to render (Google
 * renders scripts), never the private area, the rest of the API or the development pages.
 */
export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /profile',
    'Disallow: /reset-password',
    'Disallow: /auth/',
    'Disallow: /dev/',
    'Disallow: /api/',
    'Allow: /api/listings',
    'Allow: /api/shelves',
    'Allow: /api/users/',
    'Allow: /api/covers/',
    'Allow: /api/works/',
    'Allow: /api/stats',
    '',
    `Sitemap: ${publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

const sitemapFile = z.object({ file: z.string().max(64) });
const FILE = new RegExp(`^(${SITEMAP_KINDS.join('|')})-(\\d{1,6})\\.xml$`);

/** robots.txt and the sitemaps: not part of the API, so left out of its documentation. */
export const seoRoutes: Module = async (app, { database, config }) => {
  const { publicUrl } = config;
  const hide = { hide: true };

  app.get('/robots.txt', { schema: hide }, async (_request, reply) =>
    reply
      .header('cache-control', CRAWLER_CACHE_CONTROL)
      .type('text/plain; charset=utf-8')
      .send(robotsTxt(publicUrl)),
  );

  app.get('/sitemap.xml', { schema: hide }, async (_request, reply) =>
    reply
      .header('cache-control', CRAWLER_CACHE_CONTROL)
      .type(XML)
      .send(await sitemapIndex(database, publicUrl)),
  );

  app.get(
    '/sitemaps/:file',
    { schema: { ...hide, params: sitemapFile } },
    async (request, reply) => {
      const { file } = request.params;
      const match = FILE.exec(file);
      const body =
        file === 'pages.xml'
          ? staticSitemap(publicUrl)
          : match
            ? await sitemapPage(database, publicUrl, match[1] as SitemapKind, Number(match[2]))
            : null;
      if (!body) return sendNotFound(request, reply);
      return reply
        .header('cache-control', CRAWLER_CACHE_CONTROL)
        .type(XML)
        .send(typeof body === 'string' ? body : Readable.from(body));
    },
  );
};
