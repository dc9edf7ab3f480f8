import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserDetails } from '@pa/contracts/accounts';

/**
 * The account session of docs/product/web.md §3/§4, the only persisted state. It lives in shared code rather than a
 * feature because the request layer (lib/api) reads and rotates it on every call.
 */
export interface AuthState {
  userDetails: Partial<UserDetails> | null;
  accessToken: string | null;
  refreshToken: string | null;
  isAuthenticated: boolean;
}

export const initialAuthState: AuthState = {
  userDetails: null,
  accessToken: null,
  refreshToken: null,
  isAuthenticated: false,
};

export interface Credentials {
  userDetails: Partial<UserDetails> | null;
  accessToken: string;
  refreshToken?: string | null;
}

export const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    /** Sign-in or session restore: stores details and tokens and marks the user authenticated. */
    setCredentials(state, { payload }: PayloadAction<Credentials>) {
      state.userDetails = payload.userDetails;
      state.accessToken = payload.accessToken;
      state.refreshToken = payload.refreshToken ?? null;
      state.isAuthenticated = true;
    },
    /** Token rotation: replaces the tokens, keeps the user details. */
    rotateTokens(
      state,
      { payload }: PayloadAction<{ accessToken: string; refreshToken?: string | null }>,
    ) {
      state.accessToken = payload.accessToken;
      if (payload.refreshToken !== undefined) state.refreshToken = payload.refreshToken;
    },
    setUserDetails(state, { payload }: PayloadAction<Partial<UserDetails>>) {
      state.userDetails = { ...state.userDetails, ...payload };
    },
    clearCredentials() {
      return initialAuthState;
    },
  },
  selectors: {
    selectAccessToken: (state) => state.accessToken,
    selectUserDetails: (state) => state.userDetails,
    /** Authenticated only if the flag is set AND an access token is present (docs/product/web.md §4). */
    selectIsAuthenticated: (state) => state.isAuthenticated && !!state.accessToken,
  },
});

export const { setCredentials, rotateTokens, setUserDetails, clearCredentials } = authSlice.actions;
export const { selectAccessToken, selectUserDetails, selectIsAuthenticated } = authSlice.selectors;

/** The slice of root state the request layer needs; the app store satisfies it. */
export interface RootStateWithAuth {
  auth: AuthState;
}
