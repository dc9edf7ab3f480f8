import { useSelector } from 'react-redux';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { selectIsAuthenticated } from '@/lib/session/auth-slice';
import { useAuthReady } from './auth-session';

/** The protected area: "Loading authentication status..." while checking, else sign-in. */
export function ProtectedRoute({ children }: { children?: React.ReactNode }) {
  const ready = useAuthReady();
  const isAuthenticated = useSelector(selectIsAuthenticated);
  const location = useLocation();
  if (!ready) return <FullScreenSpinner label="Loading authentication status..." />;
  if (!isAuthenticated) {
    return <Navigate to="/auth/signin" replace state={{ from: location.pathname }} />;
  }
  return children ?? <Outlet />;
}

/** Guest-only pages: a signed-in user goes to /app (seed §4). */
export function GuestRoute({ children }: { children?: React.ReactNode }) {
  const ready = useAuthReady();
  const isAuthenticated = useSelector(selectIsAuthenticated);
  if (!ready) return <FullScreenSpinner label="Loading authentication status..." />;
  if (isAuthenticated) return <Navigate to="/app" replace />;
  return children ?? <Outlet />;
}
