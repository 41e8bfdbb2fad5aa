import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deleteAccountSchema, FRESH_SIGN_IN_MINUTES } from '@shared/privacy';
import type { Module } from '../../platform/module';
import { memberWriteLimit } from '../../platform/route-presets';
import {
  AppError,
  errorSchema,
  unauthorized,
  validationFailed,
  errorResponses,
} from '../../platform/errors';
import { currentUser } from '../../platform/auth';
import { toFetchHeaders } from '../../platform/auth/http';
import { inTransaction, queryOf } from '../../db/tx';
import { buildExport } from './export';
import { eraseMember } from './erase';
import { createListingAnnouncer } from '../chats';

/** `scaffale-<username>-<YYYY-MM-DD>.json`, with only safe characters. */
export function exportFileName(username: string | null, fallback: string, now: Date) {
  const who = (username ?? fallback).replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40) || 'member';
  return `scaffale-${who}-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * Members' data rights (GDPR articles 15, 17 and 20, as the privacy policy states): download
 * everything about oneself, and delete one's account. Both work on the session's member only.
 */
export const privacyRoutes: Module = async (
  app,
  { auth, database, storage, realtime, now, listingChanges },
) => {
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  // Any page can make a signed-in browser GET a URL (an image address in an ad): a GET must
  // neither build the archive nor spend the member's hourly allowance. The archive is a POST,
  // which the CSRF guard lets through only from our own pages.
  app.get(
    '/api/me/export',
    {
      schema: {
        tags: ['privacy'],
        summary: 'Not the download: answers 405 (use POST /api/me/export)',
        description:
          'An image, script or link pointing here exports nothing and does not count towards ' +
          'the hourly limit. The settings page downloads the archive with POST.',
        response: { 405: errorSchema },
      },
    },
    async (_request, reply) => {
      reply.header('allow', 'POST');
      throw new AppError(405, 'method_not_allowed', 'privacy.errors.exportByPost');
    },
  );

  app.post(
    '/api/me/export',
    {
      preHandler: app.requireUser,
      // A whole archive is a heavy read: a few a member per hour is plenty.
      config: memberWriteLimit(5, '1 hour'),
      schema: {
        tags: ['privacy'],
        summary: 'Download my data: a JSON archive of everything about the signed-in member',
        description:
          'Answered as an attachment (scaffale-<username>-<date>.json). Other members appear ' +
          'only by their public username; only the messages the member sent are included; ' +
          'contact messages and reports sent under the e-mail address without signing in ' +
          'only once that address is verified. A POST from our own pages only (CSRF guard), ' +
          'at most 5 an hour.',
        security: [{ session: [] }],
        response: { 200: z.record(z.string(), z.unknown()), ...errorResponses(401, 403, 429) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const archive = await buildExport(
        (text, params) => database.query(text, params),
        user.id,
        at,
      );
      const name = exportFileName(user.username, user.id.slice(0, 8), at);
      reply
        .header('content-disposition', `attachment; filename="${name}"`)
        .type('application/json; charset=utf-8');
      return archive;
    },
  );

  /** How the member confirms a deletion: their password, or a recent sign-in. */
  async function confirmation(request: FastifyRequest) {
    const user = currentUser(request);
    const current = await auth.api.getSession({ headers: toFetchHeaders(request) });
    if (!current || current.user.id !== user.id) throw unauthorized();
    const [credential] = await database.query<{ password: string | null }>(
      `select password from accounts
       where user_id = $1 and provider_id = 'credential' and password is not null limit 1`,
      [user.id],
    );
    const age = now().getTime() - new Date(current.session.createdAt).getTime();
    return {
      user,
      hash: credential?.password ?? null,
      fresh: age <= FRESH_SIGN_IN_MINUTES * 60 * 1000,
    };
  }

  app.get(
    '/api/me/delete',
    {
      preHandler: app.requireUser,
      schema: {
        tags: ['privacy'],
        summary: 'How the signed-in member confirms the deletion of their account',
        description:
          '"password" when the account has one; otherwise "freshSignIn", with `fresh` telling ' +
          `whether the current session was created in the last ${FRESH_SIGN_IN_MINUTES} minutes.`,
        security: [{ session: [] }],
        response: {
          200: z.object({ method: z.enum(['password', 'freshSignIn']), fresh: z.boolean() }),
          401: errorSchema,
        },
      },
    },
    async (request) => {
      const { hash, fresh } = await confirmation(request);
      return { method: hash ? ('password' as const) : ('freshSignIn' as const), fresh };
    },
  );

  app.post(
    '/api/me/delete',
    {
      preHandler: app.requireUser,
      config: memberWriteLimit(10, '15 minutes'),
      schema: {
        tags: ['privacy'],
        summary: 'Delete my account',
        description:
          'Requires the current password; a member without one (Google sign-in) must have ' +
          `signed in within the last ${FRESH_SIGN_IN_MINUTES} minutes (403 ` +
          'reauthentication_required otherwise). Ends every session, erases personal data, ' +
          'removes listings, posts, comments, reactions, wishlists, friendships, reviews and ads; ' +
          'messages in others’ conversations and transactions stay, shown as a deleted member.',
        security: [{ session: [] }],
        body: deleteAccountSchema,
        response: {
          200: z.object({ deleted: z.literal(true) }),
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const { user, hash, fresh } = await confirmation(request);
      const password = request.body.password ?? '';
      if (hash) {
        if (!password) throw validationFailed({ password: 'validation.required' });
        // A stolen session must not guess the password it lacks: one budget per member.
        await app.authLimits.passwordCheck.check(user.id);
        const context = await auth.$context;
        if (!(await context.password.verify({ password, hash }))) {
          await app.authLimits.passwordCheck.record(user.id);
          throw new AppError(400, 'invalid_password', 'privacy.errors.wrongPassword', {
            password: 'privacy.errors.wrongPassword',
          });
        }
        await app.authLimits.passwordCheck.reset(user.id);
      } else if (!fresh) {
        throw new AppError(403, 'reauthentication_required', 'privacy.errors.signInAgain');
      }

      // Their listings that conversations show (kept, hidden, as bare records): the members of
      // those conversations see the card turn unavailable live. Who they are is read before.
      const chatCards = createListingAnnouncer({
        realtime,
        query: queryOf(database),
        log: request.log,
      });
      const shown = await database.query<{ id: string }>(
        `select l.id::text as id from book_listings l where l.user_id = $1
           and (exists (select 1 from chat_rooms r where r.listing_id = l.id)
             or exists (select 1 from chat_messages m where m.listing_id = l.id)
             or exists (select 1 from offers o where o.listing_id = l.id))`,
        [user.id],
      );
      const watchers = await Promise.all(shown.map((l) => chatCards.watchers(l.id)));
      // Their listings leave (deleted, or kept hidden): published on the listing-changed hook.
      const listingsChanged = listingChanges
        ? await listingChanges.trackSellers([user.id])
        : () => {};
      const { files } = await inTransaction(database, (q) => eraseMember(q, user.id));
      listingsChanged();
      for (const [i, l] of shown.entries()) await chatCards.announce(l.id, watchers[i]);
      for (const url of files) {
        await storage.delete(url).catch((err: unknown) => {
          request.log.error({ err, url }, 'file of a deleted account could not be deleted');
          return false;
        });
      }
      // The cover upload folder holds only this member's uploads, also those stored before
      // uploads had a recorded owner.
      await storage.deleteFolder(`covers/${user.id}`).catch((err: unknown) => {
        request.log.error({ err }, 'cover folder of a deleted account could not be deleted');
      });
      await realtime.disconnectUsers?.([user.id]).catch((err: unknown) => {
        request.log.error({ err }, 'sockets of a deleted account not closed');
      });
      // The session rows are gone; the browser's cookies go too.
      for (const name of Object.keys(request.cookies ?? {}))
        if (name.includes('scaffale.')) reply.clearCookie(name, { path: '/' });
      request.log.info({ userId: user.id }, 'account deleted');
      return { deleted: true as const };
    },
  );
};
