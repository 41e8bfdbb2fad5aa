import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { sessions } from '../db/schema';
import type { SessionResolver, SessionUser } from './auth';
import { SESSION_ABSOLUTE_MS, type Auth } from './auth/instance';
import { forwardCookies, toFetchHeaders } from './auth/http';

/**
 * Resolves the signed-in member behind a request through better-auth: the signed session cookie,
 * looked up in the sessions table (idle expiry 7 days, extended at most daily while used). A
 * session older than 30 days is revoked whatever its activity. No valid session: anonymous.
 */
export function createSessionResolver(opts: {
  auth: Auth;
  database: Database;
  now?: () => Date;
}): SessionResolver {
  const { auth, database } = opts;
  const now = opts.now ?? (() => new Date());
  return {
    async resolve(request, reply) {
      // better-auth's own routes read the session themselves.
      if (request.url.startsWith('/api/auth/')) return null;
      if (!request.headers.cookie?.includes('session_token')) return null;
      const { headers, response } = await auth.api.getSession({
        headers: toFetchHeaders(request),
        returnHeaders: true,
      });
      forwardCookies(headers, reply);
      if (!response) return null;
      const { session, user } = response;
      // Suspended: the suspension deleted the sessions; this closes any race with it.
      const status = (user as { accountStatus?: string }).accountStatus;
      if (status !== undefined && status !== 'active') return null;
      if (now().getTime() - new Date(session.createdAt).getTime() > SESSION_ABSOLUTE_MS) {
        await database.db.delete(sessions).where(eq(sessions.id, session.id));
        return null;
      }
      const member: SessionUser = {
        id: user.id,
        email: user.email,
        displayName: user.name,
        username: (user as { username?: string | null }).username ?? null,
        emailVerified: user.emailVerified,
        session: { id: session.id, expiresAt: new Date(session.expiresAt) },
      };
      return member;
    },
  };
}
