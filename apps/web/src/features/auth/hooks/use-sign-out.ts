import { useCallback, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { endSession } from '@/lib/api/base-query';
import { portalApi } from '@/lib/api/portal-api';
import { power7Api } from '@/lib/api/power7-api';
import { removePersistedSignIn } from '@/lib/signed-in/persisted-sign-in';
import { useSignOutMutation } from '../api/auth-api';

/**
 * Sign-out of docs/product/web.md §4: tells the server, then — whatever it answered — clears the session, the
 * refresh cookie, the cached data and the persisted root, and ends on /auth/signin.
 */
export function useSignOut() {
  const [signOutCall] = useSignOutMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = useCallback(async () => {
    setSigningOut(true);
    try {
      await signOutCall().unwrap();
    } catch (error) {
      console.error('Sign-out error:', error);
    } finally {
      endSession({ dispatch });
      dispatch(portalApi.util.resetApiState());
      dispatch(power7Api.util.resetApiState());
      await removePersistedSignIn();
      setSigningOut(false);
      void navigate('/auth/signin', { replace: true });
    }
  }, [signOutCall, dispatch, navigate]);

  return { signOut, signingOut };
}
