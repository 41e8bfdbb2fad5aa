import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { AVATAR_MAX_BYTES } from '@shared/constants';
import { meSchema, updateProfileSchema } from '@shared/schemas/profile';
import type { Module } from '../../platform/module';
import { memberWriteLimit } from '../../platform/route-presets';
import {
  AppError,
  badRequest,
  errorSchema,
  unauthorized,
  errorResponses,
} from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { fileTooLarge, invalidFileType } from '../../platform/storage';
import { changeAvatar, loadMe, updateProfile, uploadFailed } from './service';
import { registerSessionRoute } from './session';

/** A profile change or an upload without a signed-in user: 401 'User not authenticated'. */
async function requireUserForChanges(request: FastifyRequest) {
  if (!request.user) throw unauthorized('profile.errors.notAuthenticated');
}

/**
 * The signed-in member's own profile. Every route works on the session's user: there is no
 * route here that takes a user id, so nobody can read or change another member's private data.
 */
export const profileRoutes: Module = async (app, { database, storage, releaseUploads, now }) => {
  await app.register(multipart, {
    // One byte over the limit is enough to know a file is too large; busboy stops reading there.
    limits: { fileSize: AVATAR_MAX_BYTES + 1, files: 1, fields: 5, parts: 6, headerPairs: 100 },
  });

  registerSessionRoute(app, { database });

  app.get(
    '/api/me',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['profiles'],
        summary: 'The signed-in member',
        security: [{ session: [] }],
        response: { 200: meSchema, 401: errorSchema },
      },
    },
    async (request) => loadMe(database, currentUser(request).id),
  );

  app.patch(
    '/api/me',
    {
      preHandler: requireUserForChanges,
      config: memberWriteLimit(30, '1 minute'),
      schema: {
        tags: ['profiles'],
        summary: 'Change the signed-in member’s profile',
        description:
          'Username: 3-20 letters, digits or underscores, unique ignoring case (409 when taken). ' +
          'Empty text clears a field. Unknown fields are refused. acceptTerms: true records the ' +
          'acceptance of the terms of service now (a Google account accepts them here; false is 400).',
        security: [{ session: [] }],
        body: updateProfileSchema,
        response: { 200: meSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request) => updateProfile(database, currentUser(request).id, request.body, now()),
  );

  app.post(
    '/api/me/avatar',
    {
      preHandler: requireUserForChanges,
      config: memberWriteLimit(20, '10 minutes'),
      schema: {
        tags: ['profiles'],
        summary: 'Upload a new avatar (multipart field "file")',
        description:
          'JPEG, PNG, WebP, GIF or AVIF, at most 5 MB. Stored as WebP, at most 512×512, ' +
          'without metadata; the previous avatar file is deleted.',
        consumes: ['multipart/form-data'],
        security: [{ session: [] }],
        response: {
          200: meSchema,
          503: errorSchema.describe('The file store did not answer: nothing was stored'),
          ...errorResponses(400, 401, 413, 429),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      let buffer: Buffer;
      try {
        const part = await request.file();
        if (!part || part.fieldname !== 'file') throw invalidFileType();
        buffer = await part.toBuffer();
      } catch (err) {
        if (err instanceof AppError) throw err;
        const code = (err as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge();
        if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || code === 'FST_FILES_LIMIT')
          throw invalidFileType();
        // A malformed or cut-off multipart body is the client's fault, not ours.
        request.log.info({ err }, 'unreadable avatar upload');
        throw badRequest();
      }
      try {
        return await changeAvatar({ database, storage, releaseUploads }, user.id, buffer, now());
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 503)
          request.log.warn({ err: err.cause }, 'avatar not stored: the file store did not answer');
        if (err instanceof AppError) throw err;
        request.log.error({ err }, 'avatar upload failed');
        throw uploadFailed();
      }
    },
  );
};
