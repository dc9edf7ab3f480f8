import { useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { selectIsAuthenticated } from '@/lib/signed-in/auth-slice';
import { returnPathAfterSignIn, type ReturnState } from '../lib/return-path';
import { useAuthReady } from './signed-in-state';

/** The protected area: "Loading authentication status..." while checking, else sign-in. */
export function ProtectedRoute({ children }: { children?: React.ReactNode }) {
  const ready = useAuthReady();
  const isAuthenticated = useSelector(selectIsAuthenticated);
  const location = useLocation();
  if (!ready) return <FullScreenSpinner label="Loading authentication status..." />;
  if (!isAuthenticated) {
    const state: ReturnState = { from: location.pathname + location.search + location.hash };
    return <Navigate to="/auth/signin" replace state={state} />;
  }
  return children ?? <Outlet />;
}

/**
 * Guest-only pages: a signed-in user goes to /app (docs/product/web.md §4) — or, right after signing in, to the
 * protected page they first asked for (this redirect runs as soon as the session is stored).
 */
export function GuestRoute({ children }: { children?: React.ReactNode }) {
  const ready = useAuthReady();
  const isAuthenticated = useSelector(selectIsAuthenticated);
  const location = useLocation();
  if (!ready) return <FullScreenSpinner label="Loading authentication status..." />;
  if (isAuthenticated) {
    const from = (location.state as ReturnState | null)?.from;
    return <Navigate to={returnPathAfterSignIn(from)} replace />;
  }
  return children ?? <Outlet />;
}
