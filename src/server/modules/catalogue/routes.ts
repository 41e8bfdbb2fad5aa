import { join } from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import type { Module } from '../../platform/module';
import {
  CATALOGUE_DEFAULT_LIMIT,
  catalogueSearchQuerySchema,
  catalogueSearchResultSchema,
} from '@shared/marketplace';
import { createCatalogue } from './service';
import { COVER_WIDTHS } from '@shared/cover';
import { parseWidth } from '../../platform/storage';
import { IMMUTABLE_CACHE_CONTROL } from '../../platform/http-cache';
import { createCoverCache, placeholderCover } from './covers';
import { findBookById } from './queries';
import { errorSchema } from '../../platform/errors';
import { isUuid } from '@shared/schemas/common';
import { idParam } from '../../platform/route-presets';

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
        description: `WebP, optionally resized to \`w\` px wide (${COVER_WIDTHS.join(', ')}); a book without a usable image gets its generated cover (SVG, or WebP at \`w\`).`,
        params: idParam('bookId'),
        querystring: z.object({
          w: z
            .string()
            .optional()
            .meta({ description: `Width in px: ${COVER_WIDTHS.join(', ')}` }),
        }),
        response: {
          200: z.any().meta({ description: 'image/webp, or the generated image/svg+xml' }),
          400: errorSchema,
          404: z.any().meta({ description: 'No such book: a generated image/svg+xml' }),
        },
      },
    },
    async (request, reply) => {
      const { bookId } = request.params;
      const width = parseWidth(request.query.w);
      const book = isUuid(bookId) ? await findBookById(database, bookId) : null;
      const remote = book?.cover_url;
      const image = remote
        ? await (width ? covers.sized(book.id, remote, width) : covers.get(book.id, remote))
        : null;
      reply.header('x-content-type-options', 'nosniff');
      if (image) {
        // Cached on disk by book and never refetched: the bytes behind this URL never change.
        return reply
          .header('cache-control', IMMUTABLE_CACHE_CONTROL)
          .type('image/webp')
          .send(image);
      }
      const generated = placeholderCover(book ? { title: book.title, author: book.author } : null);
      // Short: the remote cover may answer next time, and a title may be corrected.
      reply.status(book ? 200 : 404).header('cache-control', 'public, max-age=300');
      if (width) {
        // Rasterised on request (a few ms): srcset and link previews get an image at that width.
        const webp = await sharp(Buffer.from(generated), { density: (72 * width) / 200 })
          .resize({ width })
          .webp({ quality: 80 })
          .toBuffer();
        return reply.type('image/webp').send(webp);
      }
      return reply
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .type('image/svg+xml')
        .send(generated);
    },
  );
};
