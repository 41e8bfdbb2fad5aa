import { z } from 'zod';
import { meSchema } from '@shared/schemas/profile';
import type { ModuleApp, ModuleDeps } from '../../platform/module';
import { isAdmin } from '../../platform/moderation';
import { findUser } from './queries';
import { toMe } from './service';

/** GET /api/session: who is signed in, if anyone, and whether they are an admin. */
export const sessionAnswerSchema = z.object({
  user: meSchema.nullable(),
  admin: z.boolean(),
});

/**
 * The web app's start-up question. A visitor is an answer, not an error: 200 with `user: null`,
 * so a visitor's page logs no failed request (GET /api/me keeps its 401 for API clients). The
 * admin flag spares members the 404 of GET /api/admin/me on every page.
 */
export function registerSessionRoute(app: ModuleApp, { database }: Pick<ModuleDeps, 'database'>) {
  app.get(
    '/api/session',
    {
      schema: {
        tags: ['profiles'],
        summary:
          'The current session: the signed-in member (null for a visitor) and the admin flag',
        description:
          'Always 200: `{ "user": null, "admin": false }` without a session. Never cached.',
        response: { 200: sessionAnswerSchema },
      },
    },
    async (request) => {
      const row = request.user ? await findUser(database, request.user.id) : undefined;
      if (!row) return { user: null, admin: false };
      const admin = await isAdmin((text, params) => database.query(text, params), row.id);
      return { user: toMe(row), admin };
    },
  );
}
