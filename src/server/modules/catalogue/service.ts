import { CATALOGUE_DEFAULT_LIMIT, type CatalogueSearchResult } from '@shared/marketplace';
import type { Database } from '../../db/client';
import type { Config } from '../../config';
import { AppError } from '../../platform/errors';
import { createGoogleBooksClient, type GoogleBooksClient } from './google';
import { searchLocalBooks, toCatalogueBook, upsertCatalogueEntries } from './queries';

export const catalogueSearchFailed = () =>
  new AppError(502, 'catalogue_unavailable', 'catalogue.errors.searchFailed');

export interface Catalogue {
  search(q: string, limit?: number): Promise<CatalogueSearchResult>;
}

/**
 * Google Books first (its answers are kept in our books table); when it is disabled, slow or
 * unreachable, our own table answers, so quick trade and wishlists keep working offline.
 */
export function createCatalogue(deps: {
  database: Database;
  config: Config;
  fetch: typeof fetch;
  log?: { warn: (obj: object, msg: string) => void };
}): Catalogue {
  const { database, config } = deps;
  const google: GoogleBooksClient | null = config.googleBooks.enabled
    ? createGoogleBooksClient({ ...config.googleBooks, fetch: deps.fetch })
    : null;

  async function local(q: string, limit: number): Promise<CatalogueSearchResult> {
    try {
      const rows = await searchLocalBooks(database, q, limit);
      return { source: 'local', items: rows.map(toCatalogueBook) };
    } catch {
      throw catalogueSearchFailed();
    }
  }

  return {
    async search(q, limit = CATALOGUE_DEFAULT_LIMIT) {
      if (!google) return local(q, limit);
      let entries;
      try {
        entries = await google.search(q, limit);
      } catch (err) {
        deps.log?.warn(
          { err: (err as Error).message },
          'Google Books unavailable, searching locally',
        );
        return local(q, limit);
      }
      const rows = await upsertCatalogueEntries(database, entries);
      return { source: 'google', items: rows.map(toCatalogueBook) };
    },
  };
}
