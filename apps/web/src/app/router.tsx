import { createBrowserRouter, type RouteObject } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { ServerErrorRoute } from './routes/server-error';

/** The route table of seed §2. */
export const routes: RouteObject[] = [
  {
    errorElement: <ServerErrorRoute />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <LandingRoute /> },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
