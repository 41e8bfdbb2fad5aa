import { join } from 'node:path';
import { z } from 'zod';
import type { Module } from '../../app';
import {
  CATALOGUE_DEFAULT_LIMIT,
  catalogueSearchQuerySchema,
  catalogueSearchResultSchema,
} from '@shared/marketplace';
import { createCatalogue } from './service';
import { createCoverCache, placeholderCover } from './covers';
import { findBookById } from './queries';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const catalogueRoutes: Module = async (app, deps) => {
  const { database, config } = deps;
  const catalogue = createCatalogue({ database, config, fetch: deps.fetch, log: app.log });
  let googleHost: string | undefined;
  try {
    googleHost = new URL(config.googleBooks.baseUrl).host;
  } catch {
    googleHost = undefined;
  }
  const covers = createCoverCache({
    dir: join(config.dataDir, 'covers'),
    fetch: deps.fetch,
    timeoutMs: Math.max(config.googleBooks.timeoutMs, 5000),
    // The configured Google Books server also serves its cover images (a local one in tests).
    extraHosts: googleHost && !googleHost.endsWith('googleapis.com') ? [googleHost] : [],
  });

  app.get(
    '/api/catalogue/search',
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['catalogue'],
        summary: 'Search the book catalogue (Google Books, or our own books when it is offline)',
        querystring: catalogueSearchQuerySchema,
        response: { 200: catalogueSearchResultSchema },
      },
    },
    async (request) => {
      const { q, limit } = request.query;
      return catalogue.search(q, limit ?? CATALOGUE_DEFAULT_LIMIT);
    },
  );

  app.get(
    '/api/covers/:bookId',
    {
      schema: {
        tags: ['catalogue'],
        summary: "A book's cover from our origin (remote covers are fetched once and cached)",
        params: z.object({ bookId: z.string().max(64) }),
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      const book = UUID.test(bookId) ? await findBookById(database, bookId) : null;
      const image = book?.cover_url ? await covers.get(book.id, book.cover_url) : null;
      reply.header('x-content-type-options', 'nosniff');
      if (image) {
        return reply
          .header('cache-control', 'public, max-age=86400')
          .type('image/webp')
          .send(image);
      }
      return reply
        .status(book ? 200 : 404)
        .header('cache-control', 'public, max-age=300')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('image/svg+xml')
        .send(placeholderCover(book?.title ?? ''));
    },
  );
};
