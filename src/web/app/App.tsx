import { Suspense } from 'react';
import { RouterProvider } from 'react-router';
import { Center, Loader } from '@mantine/core';
import { Providers } from './providers';
import { router } from './router';

export function App() {
  return (
    <Providers>
      <Suspense
        fallback={
          <Center h="100vh">
            <Loader role="status" aria-label="Loading" />
          </Center>
        }
      >
        <RouterProvider router={router} />
      </Suspense>
    </Providers>
  );
}
