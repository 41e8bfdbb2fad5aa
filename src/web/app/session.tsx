import { createContext, useContext, type ReactNode } from 'react';

/** The signed-in member as the web app sees it. */
export interface SessionUser {
  id: string;
  email: string;
  displayName: string;
  username: string | null;
  avatarUrl: string | null;
  emailVerified: boolean;
}

export type Session =
  | { status: 'loading'; user: null }
  | { status: 'signed-out'; user: null; expired?: boolean }
  | { status: 'signed-in'; user: SessionUser };

const SessionContext = createContext<Session>({ status: 'signed-out', user: null });

/**
 * The seam where accounts plug in: today nobody is signed in. The accounts feature replaces the
 * value with the real session (loading, signed in, expired) and the shell follows it.
 */
export function SessionProvider({ children, value }: { children: ReactNode; value?: Session }) {
  return (
    <SessionContext.Provider value={value ?? { status: 'signed-out', user: null }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): Session {
  return useContext(SessionContext);
}

/** Display name, or the e-mail's local part when the name is empty or the fallback 'User'. */
export function displayNameOf(user: Pick<SessionUser, 'displayName' | 'email'>): string {
  const name = user.displayName?.trim();
  return name && name !== 'User' ? name : user.email.split('@')[0];
}
