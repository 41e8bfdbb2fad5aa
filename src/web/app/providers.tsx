import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { theme, cssVariablesResolver } from './theme';
import { SessionProvider, useSession } from './session';
import { useRealtimeConnection } from '../lib/realtime';

/** The tab's realtime socket, open while a member is signed in. */
function RealtimeConnection() {
  const session = useSession();
  useRealtimeConnection(session.status === 'signed-in' ? session.user.id : null);
  return null;
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
      }),
  );
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <Notifications position="top-right" />
        <SessionProvider>
          <RealtimeConnection />
          {children}
        </SessionProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
