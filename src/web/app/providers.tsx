import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { theme, cssVariablesResolver } from './theme';
import { SessionProvider, useSession } from './session';
import { useRealtimeConnection } from '../lib/realtime';

/** The tab's realtime socket, open while a member is signed in. */
function RealtimeConnection() {
  const session = useSession();
  useRealtimeConnection(session.status === 'signed-in' ? session.user.id : null);
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
