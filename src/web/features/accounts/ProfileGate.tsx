import { lazy, Suspense, type ReactNode } from 'react';
import { withLocaleGroups } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { PageLoader } from '../../components/PageLoader';

const ProfileSetupPage = lazy(() =>
  withLocaleGroups(['pages'], () => import('./ProfileSetupPage')),
);

/**
 * Wraps the app's pages: a signed-in member without a display name or a username, or who has not
 * accepted the terms of service, sees only the page that asks for them (the header, with
 * sign-out, stays), whatever address they open.
 */
export function ProfileGate({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session.status === 'signed-in' && (session.user.needsProfile || session.user.needsTerms)) {
    return (
      <Suspense fallback={<PageLoader />}>
        <ProfileSetupPage />
      </Suspense>
    );
  }
  return <>{children}</>;
}
