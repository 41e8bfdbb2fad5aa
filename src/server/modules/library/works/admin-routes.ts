import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ADMIN_WORKS_PAGE_SIZE,
  ADMIN_WORK_BOOKS_PAGE_SIZE,
  adminWorkDetailSchema,
  adminWorkPageSchema,
  adminWorksQuerySchema,
  bookWorkSchema,
  workMergeSchema,
  workPatchSchema,
  workSchema,
} from '@shared/works';
import { pageQuerySchema } from '@shared/moderation';
import type { Database } from '../../../db/client';
import { queryOf } from '../../../db/tx';
import { errorSchema, unauthorized } from '../../../platform/errors';
import { requestLanguage } from '../../../platform/i18n';
import { adminOnly, type Moderator } from '../../../platform/moderation';
import type { ModuleApp } from '../../../platform/module';
import { idParam } from '../../../platform/route-presets';
import { mergeWorks, moveBook, patchWork, workNotFound } from './admin';
import { adminWork, searchWorks } from './admin-list';
import { findWork } from './queries';

/** The admin who sends the request (adminOnly has checked there is one). */
const moderatorOf = (request: FastifyRequest): Moderator => {
  if (!request.user) throw unauthorized();
  return { id: request.user.id, email: request.user.email };
};

/**
 * The admins' works screen (issue 35): search works, read one with its books, correct it, move
 * a book to another work or a new one, merge two works. Admins only: 401 for visitors, 404 for
 * members who are not admins (as if the routes were absent), checked before the input. Every
 * change is written to the moderation log, in the same transaction.
 */
export function registerWorkAdminRoutes(app: ModuleApp, database: Database): void {
  const query = queryOf(database);
  const admins = adminOnly(query);
  const security = [{ session: [] }];
  const adminErrors = { 400: errorSchema, 401: errorSchema, 404: errorSchema };

  app.get(
    '/api/admin/works',
    {
      preValidation: admins,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Search works by a title in any language or the author (admins)',
        description:
          `q: words of a title or of the author (case and accents aside); none: every work, ` +
          `newest first. ${ADMIN_WORKS_PAGE_SIZE} a page, an exact title first, then by ` +
          'author. Each with its titles, first year, catalogue books and available copies.',
        querystring: adminWorksQuerySchema,
        response: { 200: adminWorkPageSchema, ...adminErrors },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const found = await searchWorks(query, request.query.q ?? '', page, requestLanguage(request));
      return { ...found, page, pageSize: ADMIN_WORKS_PAGE_SIZE };
    },
  );

  app.get(
    '/api/admin/works/:id',
    {
      preValidation: admins,
      schema: {
        tags: ['admin'],
        security,
        summary: 'A work and a page of its catalogue books (editions), for the admins',
        description: `${ADMIN_WORK_BOOKS_PAGE_SIZE} books a page, oldest first, each with its language, ISBN and listings.`,
        params: idParam('id'),
        querystring: pageQuerySchema,
        response: { 200: adminWorkDetailSchema, ...adminErrors },
      },
    },
    async (request) => {
      const page = request.query.page ?? 1;
      const found = await adminWork(query, request.params.id, page, requestLanguage(request));
      if (!found) throw workNotFound();
      return { ...found, page, pageSize: ADMIN_WORK_BOOKS_PAGE_SIZE };
    },
  );

  app.patch(
    '/api/admin/works/:id',
    {
      preValidation: admins,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Correct a work: its author, first year, or a title per language (admins)',
        description:
          'Only the fields sent change. titles maps a language code to its title (null removes ' +
          'it); a work keeps at least one title. The listings of the work are found by its new ' +
          'titles at once. What changed goes to the moderation log. 401 for visitors, 404 for ' +
          'members who are not admins and for a missing work.',
        params: idParam('id'),
        body: workPatchSchema,
        response: { 200: workSchema, ...adminErrors },
      },
    },
    async (request) => {
      await patchWork(database, moderatorOf(request), request.params.id, request.body);
      const work = await findWork(query, request.params.id, requestLanguage(request));
      if (!work) throw workNotFound();
      return work;
    },
  );

  app.put(
    '/api/admin/books/:id/work',
    {
      preValidation: admins,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Put a catalogue book (an edition) in another work, or a new one (admins)',
        description:
          "workId: the work, or 'new' for a work of its own (its title and author). The book's " +
          'listings that followed it move with it. Logged in the moderation log. 401 for ' +
          'visitors, 404 for members who are not admins and for a missing book or work.',
        params: idParam('id'),
        body: bookWorkSchema,
        response: {
          200: z.object({ bookId: z.string(), workId: z.string() }),
          ...adminErrors,
        },
      },
    },
    async (request) =>
      moveBook(database, moderatorOf(request), request.params.id, request.body.workId),
  );

  app.post(
    '/api/admin/works/:id/merge',
    {
      preValidation: admins,
      schema: {
        tags: ['admin'],
        security,
        summary: 'Merge another work into this one (admins)',
        description:
          'The work `from` joins this one: its books and their listings, its titles in the ' +
          'languages this one lacks, its first year when this one has none, and the wishes for ' +
          'it; then it is deleted. Logged in the moderation log. 400 when both are the same ' +
          'work; 401 for visitors, 404 for members who are not admins and for a missing work.',
        params: idParam('id'),
        body: workMergeSchema,
        response: { 200: workSchema, ...adminErrors },
      },
    },
    async (request) => {
      await mergeWorks(database, moderatorOf(request), request.params.id, request.body.from);
      const work = await findWork(query, request.params.id, requestLanguage(request));
      if (!work) throw workNotFound();
      return work;
    },
  );
}
