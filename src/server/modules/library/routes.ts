import type { Module } from '../../app';
import {
  libraryQuerySchema,
  listingPageSchema,
  shelvesQuerySchema,
  shelvesSchema,
} from '@shared/marketplace';
import { searchListings } from './search';
import { loadShelves } from './shelves';

export const libraryRoutes: Module = async (app, { database }) => {
  app.get(
    '/api/listings',
    {
      schema: {
        tags: ['library'],
        summary: 'Search and filter listings (the library)',
        description:
          'q matches every word (as a prefix) in title, author and description, ignoring accents; ' +
          'when nothing matches, title and author are matched forgiving typos. type=sell means ' +
          'sell or both, type=trade trade or both. status defaults to available; all = any. ' +
          'Price filters keep listings without a price unless minPrice > 0. priceBounds: the ' +
          'lowest and highest price under every filter except the price range (0-1000 when none).',
        querystring: libraryQuerySchema,
        response: { 200: listingPageSchema },
      },
    },
    async (request) => searchListings(database, request.query),
  );

  app.get(
    '/api/shelves',
    {
      schema: {
        tags: ['library'],
        summary: 'Marketplace shelves: best deals, just listed, popular, premium, one per genre',
        querystring: shelvesQuerySchema,
        response: { 200: shelvesSchema },
      },
    },
    async (request) => loadShelves(database, request.query),
  );
};
