import { Suspense } from 'react';
import { RouterProvider } from '@web/lib/router';
import { Center } from '@mantine/core';
import { Providers } from './providers';
import { router } from './router';
import { Spinner } from '../components/PageLoader';

export function App() {
  return (
    <Providers>
      <Suspense
        fallback={
          <Center h="100vh">
            <Spinner label="Loading" />
          </Center>
        }
      >
        <RouterProvider router={router} />
      </Suspense>
    </Providers>
  );
}
