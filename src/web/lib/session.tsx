import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { api, ApiError, onUnauthorized } from './api';
import i18n from './i18n';
import { memberNameOf } from './displayName';

/** The signed-in member as the web app sees it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  username: string | null;
  avatarUrl: string | null;
  emailVerified: boolean;
  /** Seeds the local identicon when there is no avatar (a hash of the id, not of the e-mail). */
  avatarSeed?: string | null;
  /** No display name or username yet: the app asks for them before anything else. */
  needsProfile?: boolean;
  /** The terms of service not accepted yet (a Google account): asked on the same first page. */
  needsTerms?: boolean;
}

export type SessionState =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null; expired?: boolean }
  | { status: 'signed-in'; user: SessionUser };

export interface SessionActions {
  /** Reads GET /api/session again; resolves with the user, or null when nobody is signed in. */
  refresh: () => Promise<SessionUser | null>;
  /** Ends the session on the server and in every tab of this browser. */
  signOut: () => Promise<void>;
  /** Takes the member returned by sign-in or a profile update without another round trip. */
  applyUser: (me: MeLike) => void;
}

export type Session = SessionState & SessionActions;

/** The fields of the API's Me that the session keeps (the full Me is cached under ['me']). */
export type MeLike = SessionUser & Record<string, unknown>;

export const ME_QUERY_KEY = ['me'] as const;
/** Whether this member is an admin: seeded by every GET /api/session, read by useIsAdmin. */
const adminQueryKey = (userId: string) => ['session', 'admin', userId] as const;

/** GET /api/session: 200 for everyone, `user: null` for a visitor (no failed request to log). */
interface SessionAnswer {
  user: MeLike | null;
  admin: boolean;
}

const CHANNEL_NAME = 'scaffale.session';
const STORAGE_EVENT_KEY = 'scaffale.session.event';
const CALLBACK_PATH = '/auth/callback';
/** Dispatched on window when the member signs out (not when the session expired). */
export const SIGNED_OUT_EVENT = 'scaffale:signed-out';

type SessionMessage = { type: 'signed-in' } | { type: 'signed-out' };

const noop = async () => null;
const SessionContext = createContext<Session>({
  status: 'signed-out',
  user: null,
  refresh: noop,
  signOut: async () => {},
  applyUser: () => {},
});

function toSessionUser(me: MeLike): SessionUser {
  return {
    id: me.id,
    email: me.email,
    displayName: me.displayName ?? '',
    username: me.username ?? null,
    avatarUrl: me.avatarUrl ?? null,
    emailVerified: Boolean(me.emailVerified),
    avatarSeed: typeof me.avatarSeed === 'string' ? me.avatarSeed : null,
    needsProfile: me.needsProfile === true,
    needsTerms: me.needsTerms === true,
  };
}

/** Tells the other tabs of this browser; BroadcastChannel where it exists, the storage event otherwise. */
function createTabChannel(onMessage: (message: SessionMessage) => void) {
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(CHANNEL_NAME);
    channel.onmessage = (event: MessageEvent<SessionMessage>) => onMessage(event.data);
    return { post: (m: SessionMessage) => channel.postMessage(m), close: () => channel.close() };
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key !== STORAGE_EVENT_KEY || !event.newValue) return;
    try {
      onMessage(JSON.parse(event.newValue) as SessionMessage);
    } catch {
      /* another writer's value: ignore */
    }
  };
  window.addEventListener('storage', onStorage);
  return {
    post: (m: SessionMessage) =>
      localStorage.setItem(STORAGE_EVENT_KEY, JSON.stringify({ ...m, at: Date.now() })),
    close: () => window.removeEventListener('storage', onStorage),
  };
}

/**
 * The real session: GET /api/session on start (except on /auth/callback, which reads it itself),
 * sign-out in every tab, and the 'Session Expired' notice when a request of a signed-in member
 * answers 401.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>({ status: 'loading', user: null });
  const stateRef = useRef(state);
  const channelRef = useRef<ReturnType<typeof createTabChannel> | null>(null);

  const update = useCallback((next: SessionState) => {
    const restoring = stateRef.current.status === 'loading';
    stateRef.current = next;
    // The session restored at start re-renders the whole page (the header, every card's heart):
    // as a transition React does it in short slices instead of one long task during the load.
    // Later changes (sign-in, sign-out) apply at once, as the pages that follow them expect.
    if (restoring) startTransition(() => setState(next));
    else setState(next);
  }, []);

  const signedIn = useCallback(
    (me: MeLike) => {
      queryClient.setQueryData(ME_QUERY_KEY, me);
      update({ status: 'signed-in', user: toSessionUser(me) });
    },
    [queryClient, update],
  );

  const signedOut = useCallback(
    (expired: boolean) => {
      const current = stateRef.current;
      if (current.status === 'signed-out') return;
      const wasSignedIn = current.status === 'signed-in';
      update({ status: 'signed-out', user: null, expired: expired && wasSignedIn });
      if (wasSignedIn) {
        // Nothing private stays in the cache once the member is gone.
        queryClient.removeQueries({ queryKey: ME_QUERY_KEY });
        void queryClient.resetQueries();
      }
      // Nor their unsent chat messages in the tab (features/chats/pending.ts); an expired session
      // keeps them for the member signing in again.
      if (wasSignedIn && !expired) window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
      if (expired && wasSignedIn) {
        notifications.show({
          id: 'session-expired',
          color: 'orange',
          title: i18n.t('account.sessionExpiredTitle'),
          message: i18n.t('account.sessionExpired'),
          autoClose: 8000,
          closeButtonProps: { 'aria-label': i18n.t('common.close') },
        });
      }
    },
    [queryClient, update],
  );

  const refresh = useCallback(async (): Promise<SessionUser | null> => {
    let answer: SessionAnswer;
    try {
      answer = await api<SessionAnswer>('/api/session');
    } catch (err) {
      // Not answered: nobody is known to be signed in, and the caller hears why.
      signedOut(false);
      throw err;
    }
    if (!answer.user) {
      // A refresh with no session marks a signed-in session expired.
      signedOut(true);
      return null;
    }
    queryClient.setQueryData(adminQueryKey(answer.user.id), answer.admin);
    signedIn(answer.user);
    return toSessionUser(answer.user);
  }, [queryClient, signedIn, signedOut]);

  const signOut = useCallback(async () => {
    try {
      await api('/api/auth/sign-out', { method: 'POST', body: {} });
    } catch (err) {
      // A session that had already ended is signed out all the same.
      if (!(err instanceof ApiError && err.status === 401)) throw err;
    } finally {
      signedOut(false);
      channelRef.current?.post({ type: 'signed-out' });
    }
  }, [signedOut]);

  const applyUser = useCallback(
    (me: MeLike) => {
      const wasSignedIn = stateRef.current.status === 'signed-in';
      signedIn(me);
      if (!wasSignedIn) channelRef.current?.post({ type: 'signed-in' });
    },
    [signedIn],
  );

  useEffect(() => {
    const channel = createTabChannel((message) => {
      if (message.type === 'signed-out') signedOut(false);
      else if (message.type === 'signed-in') void refresh().catch(() => {});
    });
    channelRef.current = channel;
    const stopListening = onUnauthorized((path) => {
      // 401 on the sign-in routes means a wrong password, not an expired session.
      if (path.startsWith('/api/auth/') || path.startsWith('/api/accounts/')) return;
      if (stateRef.current.status === 'signed-in') signedOut(true);
    });
    if (window.location.pathname !== CALLBACK_PATH) void refresh().catch(() => {});
    return () => {
      stopListening();
      channel.close();
      channelRef.current = null;
    };
  }, [refresh, signedOut]);

  const value = useMemo<Session>(
    () => ({ ...state, refresh, signOut, applyUser }) as Session,
    [state, refresh, signOut, applyUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  return useContext(SessionContext);
}

/**
 * Whether the signed-in member is an admin (to show the moderation link and admins' actions).
 * The session's answer seeds it; after a sign-in it asks GET /api/session once. Never asks
 * GET /api/admin/me, whose 404 for every other member would log an error on every page.
 */
export function useIsAdmin(): boolean {
  const session = useSession();
  const userId = session.status === 'signed-in' ? session.user.id : null;
  const query = useQuery({
    queryKey: adminQueryKey(userId ?? ''),
    queryFn: async ({ signal }) => {
      const answer = await api<SessionAnswer>('/api/session', { signal });
      return answer.user?.id === userId && answer.admin;
    },
    enabled: !!userId,
    staleTime: Infinity,
    retry: false,
  });
  return !!userId && query.data === true;
}

/** The name a member goes by (see memberNameOf): never the e-mail's local part. */
export function displayNameOf(user: {
  displayName?: string | null;
  username?: string | null;
}): string {
  return memberNameOf(user, i18n.t('account.member'));
}
