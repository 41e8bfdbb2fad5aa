import {
  SAVED_SEARCHES_MAX,
  hasCriteria,
  type SavedSearch,
  type SavedSearchFilters,
} from '@shared/schemas/savedSearches';
import { isUuid } from '@shared/schemas/common';
import type { Database } from '../../db/client';
import { inTransaction } from '../../db/tx';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors';
import {
  countSearches,
  deleteSearch,
  insertSearch,
  nameTaken,
  toSavedSearch,
  updateSearch,
} from './queries';

const searchNotFound = () => notFound('savedSearches.errors.notFound');

/** The rules of saving, renaming and deleting; another member's search is simply not found. */
export function createSavedSearchService({
  database,
  now,
}: {
  database: Database;
  now: () => Date;
}) {
  /** One member's changes one at a time, so two saves at once cannot pass the limit together. */
  const asMember = <T>(userId: string, work: Parameters<typeof inTransaction<T>>[1]) =>
    inTransaction(database, async (query) => {
      await query('select pg_advisory_xact_lock(hashtext($1))', [`saved-searches:${userId}`]);
      return work(query);
    });

  return {
    async create(userId: string, name: string, filters: SavedSearchFilters): Promise<SavedSearch> {
      if (!hasCriteria(filters))
        throw badRequest('savedSearches.errors.empty', { filters: 'savedSearches.errors.empty' });
      const row = await asMember(userId, async (query) => {
        if ((await countSearches(query, userId)) >= SAVED_SEARCHES_MAX)
          throw new AppError(409, 'too_many', 'savedSearches.errors.tooMany', undefined, {
            max: SAVED_SEARCHES_MAX,
          });
        if (await nameTaken(query, userId, name, null))
          throw conflict('savedSearches.errors.nameTaken', {
            name: 'savedSearches.errors.nameTaken',
          });
        return insertSearch(query, userId, name, filters, now().toISOString());
      });
      return toSavedSearch(row);
    },

    async update(
      userId: string,
      id: string,
      patch: { name?: string; notify?: boolean },
    ): Promise<SavedSearch> {
      if (!isUuid(id)) throw searchNotFound();
      const row = await asMember(userId, async (query) => {
        if (patch.name !== undefined && (await nameTaken(query, userId, patch.name, id)))
          throw conflict('savedSearches.errors.nameTaken', {
            name: 'savedSearches.errors.nameTaken',
          });
        return updateSearch(query, userId, id, patch, now().toISOString());
      });
      if (!row) throw searchNotFound();
      return toSavedSearch(row);
    },

    async remove(userId: string, id: string): Promise<void> {
      if (!isUuid(id) || !(await deleteSearch(database, userId, id))) throw searchNotFound();
    },
  };
}
