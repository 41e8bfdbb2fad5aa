import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { theme, cssVariablesResolver } from './theme';
import { SessionProvider, useSession } from '../lib/session';

const SESSION_ENDED_GRACE_MS = 1000;

/**
 * The tab's realtime socket, open while a member is signed in. The client is fetched only then:
 * a visitor's first screen does not carry it (the features using it import it in their chunks).
 * When the server ends the socket's session, the tab asks who is signed in: nobody shows the
 * signed-out state; the same member on a newer session (signed in again elsewhere) reconnects.
 * It asks a moment later: a sign-out of this browser (this tab's answer, or another tab's message)
 * ends the session too, and then settles the state itself without an 'expired' notice.
 */
function RealtimeConnection() {
  const session = useSession();
  const active = session.status === 'signed-in' ? session.user.id : null;
  const { refresh } = session;
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    let stop: (() => void) | undefined;
    let asking: ReturnType<typeof setTimeout> | undefined;
    void import('../lib/realtime').then((realtime) => {
      if (cancelled) return;
      realtime.startRealtime();
      const stopListening = realtime.onRealtimeSessionEnded(() => {
        clearTimeout(asking);
        asking = setTimeout(() => {
          if (cancelled) return;
          void refresh()
            .then((user) => {
              if (!cancelled && user?.id === active) realtime.startRealtime();
            })
            .catch(() => {});
        }, SESSION_ENDED_GRACE_MS);
      });
      stop = () => {
        clearTimeout(asking);
        stopListening();
        realtime.stopRealtime();
      };
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [active, refresh]);
  return null;
}

// The toasts' code (with its transition and scroll-lock libraries) is not needed for the first
// paint: it is fetched once the page has loaded. A toast raised before then waits in the store.
const Notifications = lazy(() => import('./Toasts'));

function useAfterLoad(): boolean {
  const [loaded, setLoaded] = useState(() => document.readyState === 'complete');
  useEffect(() => {
    if (loaded) return;
    const done = () => setLoaded(true);
    // The load event may have fired between the first render and this effect.
    if (document.readyState === 'complete') return done();
    window.addEventListener('load', done, { once: true });
    return () => window.removeEventListener('load', done);
  }, [loaded]);
  return loaded;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  const loaded = useAfterLoad();
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        defaultColorScheme="light"
        cssVariablesResolver={cssVariablesResolver}
      >
        {loaded && (
          <Suspense fallback={null}>
            <Notifications position="top-right" />
          </Suspense>
        )}
        <SessionProvider>
          <RealtimeConnection />
          {children}
        </SessionProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
