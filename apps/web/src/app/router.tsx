import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { PublicLayout } from '@/components/layouts/public-layout';
import { AccountMenu } from '@/features/auth/components/account-menu';
import { GuestRoute, ProtectedRoute } from '@/features/auth/components/route-guards';
import { AccountEditRoute, AccountViewRoute, ChangePasswordRoute } from './routes/account';
import { ForgotPasswordRoute, ResetPasswordRoute, SignInRoute } from './routes/auth';
import { companyRoutes } from './routes/company/routes';
import { DashboardRoute } from './routes/dashboard';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { power7Routes } from './routes/power7/routes';
import { ServerErrorRoute } from './routes/server-error';

/** The route table of seed §2 (plus the account pages and the reset-password link). */
export const routes: RouteObject[] = [
  {
    errorElement: <ServerErrorRoute />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <LandingRoute /> },
          {
            path: 'auth',
            element: <GuestRoute />,
            children: [
              { index: true, element: <Navigate to="/auth/signin" replace /> },
              { path: 'signin', element: <SignInRoute /> },
              { path: 'forgot-password', element: <ForgotPasswordRoute /> },
              { path: 'reset-password', element: <ResetPasswordRoute /> },
              { path: '*', element: <NotFoundRoute /> },
            ],
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
      {
        path: 'app',
        element: <ProtectedRoute />,
        children: [
          {
            element: <DashboardLayout accountMenu={<AccountMenu />} />,
            children: [
              { index: true, element: <DashboardRoute /> },
              { path: 'account/view', element: <AccountViewRoute /> },
              { path: 'account/edit', element: <AccountEditRoute /> },
              { path: 'account/change-password', element: <ChangePasswordRoute /> },
              { path: 'company', children: companyRoutes },
              { path: 'power7', children: power7Routes },
              { path: '*', element: <NotFoundRoute /> },
            ],
          },
        ],
      },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
