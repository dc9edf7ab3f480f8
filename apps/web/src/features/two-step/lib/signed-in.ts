import { useDispatch } from 'react-redux';
import { refreshCookie } from '@/lib/refresh-cookie';
import { setCredentials } from '@/lib/signed-in/auth-slice';
import type { SignedIn } from '../api/two-step-api';

/** Stores a completed sign-in as the password form does; the guest pages then move on by themselves. */
export function useStoreSignIn() {
  const dispatch = useDispatch();
  return ({ accessToken, refreshToken, ...userDetails }: SignedIn) => {
    refreshCookie.set(refreshToken);
    dispatch(setCredentials({ userDetails, accessToken, refreshToken }));
  };
}

/** A browser's refusal of a passkey ceremony (cancelled, timed out, no passkey) as a sentence. */
export function passkeyProblem(error: unknown): string {
  const name = error instanceof Error ? error.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError')
    return 'The passkey request was cancelled or timed out.';
  if (name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  return error instanceof Error ? error.message : 'The passkey could not be used.';
}
