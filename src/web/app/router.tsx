import { createBrowserRouter, type RouteObject } from 'react-router';
import { Layout } from './Layout';
import { RouteError } from './RouteError';
import { NotFoundPage } from '../features/not-found';

// Every page is its own chunk: the home page loads only what it shows.
export const page = (
  load: () => Promise<{ default: React.ComponentType }>,
): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/** Children of /profile/:userId (the private area); features append their sections. */
export const privateAreaRoutes: RouteObject[] = [
  // Accounts: dashboard (also the index), settings
  // Marketplace: books
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, ...page(() => import('../features/home/HomePage')) },
      // Static pages: about, contact, legal
      // Accounts: login, signup, auth/callback, reset-password, profile/:userId/* (privateAreaRoutes)
      // Marketplace: library, buy, trade, library/book/:bookId, sell, user/:userId, user/:userId/books
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
