import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from '@/components/layouts/public-layout';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { GuestRoute, ProtectedRoute } from '@/features/auth/components/route-guards';
import { companyRoutes } from './routes/company/routes';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';
import { power7Routes } from './routes/power7/routes';
import { ServerErrorRoute } from './routes/server-error';

/*
 * Route-level code splitting: the landing page, the public layout, the guards and the error pages
 * are in the first script; everything else (sign-in forms, the shell, account pages, and the company
 * and Power 7 screens in their own route modules) is fetched when its route is opened.
 */
const page = <M,>(load: () => Promise<M>, pick: (module: M) => ComponentType) => ({
  lazy: async () => ({ Component: pick(await load()) }),
});
const authPages = () => import('./routes/auth');
const accountPages = () => import('./routes/account');

/**
 * The route table of docs/product/web.md §2 (plus the account pages, the reset-password link and the
 * undo-email-change link).
 */
export const routes: RouteObject[] = [
  {
    errorElement: <ServerErrorRoute />,
    // Shown while the first page's lazy chunk loads (a deep link straight into a split route).
    hydrateFallbackElement: <FullScreenSpinner />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { index: true, element: <LandingRoute /> },
          // Open whether or not this browser is signed in: the owner may be, the undo ends it.
          {
            path: 'auth/undo-email-change',
            ...page(authPages, (m) => m.UndoEmailChangeRoute),
          },
          // Likewise: the new address's link may be opened in any browser (ADR 026).
          {
            path: 'auth/confirm-email-change',
            ...page(authPages, (m) => m.ConfirmEmailChangeRoute),
          },
          {
            path: 'auth',
            element: <GuestRoute />,
            children: [
              { index: true, element: <Navigate to="/auth/signin" replace /> },
              { path: 'signin', ...page(authPages, (m) => m.SignInRoute) },
              { path: 'forgot-password', ...page(authPages, (m) => m.ForgotPasswordRoute) },
              { path: 'reset-password', ...page(authPages, (m) => m.ResetPasswordRoute) },
              {
                path: 'accept-invitation',
                ...page(authPages, (m) => m.AcceptInvitationRoute),
              },
              { path: 'enrol', ...page(authPages, (m) => m.EnrolRoute) },
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
            ...page(
              () => import('./routes/shell'),
              (m) => m.ShellRoute,
            ),
            children: [
              {
                index: true,
                ...page(
                  () => import('./routes/dashboard'),
                  (m) => m.DashboardRoute,
                ),
              },
              { path: 'account/view', ...page(accountPages, (m) => m.AccountViewRoute) },
              { path: 'account/edit', ...page(accountPages, (m) => m.AccountEditRoute) },
              {
                path: 'account/change-password',
                ...page(accountPages, (m) => m.ChangePasswordRoute),
              },
              { path: 'company', children: companyRoutes },
              {
                path: 'security',
                ...page(
                  () => import('./routes/security'),
                  (m) => m.SecurityRoute,
                ),
              },
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
