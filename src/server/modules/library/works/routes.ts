import { workPageSchema } from '@shared/works';
import type { Database } from '../../../db/client';
import { queryOf } from '../../../db/tx';
import { errorSchema } from '../../../platform/errors';
import { publicRead } from '../../../platform/http-cache';
import { requestLanguage } from '../../../platform/i18n';
import type { ModuleApp } from '../../../platform/module';
import { idParam } from '../../../platform/route-presets';
import { workNotFound } from './admin';
import { registerWorkAdminRoutes } from './admin-routes';
import { WORK_COPIES_MAX, findWork, workCopies } from './queries';

/**
 * A work's page (`GET /api/works/:id`) and the admins' corrections of works (issue 35). A work
 * answers 404 as a missing one when it does not exist; it answers with no copies when none is
 * available to this viewer.
 */
export function registerWorkRoutes(app: ModuleApp, database: Database, now: () => Date): void {
  const query = queryOf(database);

  app.get(
    '/api/works/:id',
    {
      config: publicRead,
      schema: {
        tags: ['library'],
        summary: 'A work (one book across its editions and languages) and its available copies',
        description:
          `Its titles (the reader's language first), author and first year, and up to ` +
          `${WORK_COPIES_MAX} copies as the library shows listings (available, not hidden, seller ` +
          'active and not on holiday, no block between the viewer and the seller), each with ' +
          "its condition, language, seller and the seller's rating, price, shipping and total " +
          '(price plus shipping), the cheapest total first and copies for trade last. 404 for ' +
          'a work that does not exist.',
        params: idParam('id'),
        response: { 200: workPageSchema, 400: errorSchema, 404: errorSchema },
      },
    },
    async (request) => {
      const work = await findWork(query, request.params.id, requestLanguage(request));
      if (!work) throw workNotFound();
      const copies = await workCopies(database, work.id, request.user?.id ?? null, now());
      return { work, copies };
    },
  );

  registerWorkAdminRoutes(app, database);
}
