import { useSelector } from 'react-redux';
import { selectIsAuthenticated } from '@/lib/signed-in/auth-slice';
import { LandingPage } from './landing-page';

export function LandingRoute() {
  // A signed-in visitor goes straight into the app instead of to a sign-in page that would bounce.
  return <LandingPage signedIn={useSelector(selectIsAuthenticated)} />;
}
