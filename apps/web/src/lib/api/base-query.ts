import {
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
} from '@reduxjs/toolkit/query';
import type { Envelope } from '@pa/contracts/envelope';
import { PORTAL_API_URL } from '@/config/env';
import { refreshCookie } from '@/lib/refresh-cookie';
import { clearCredentials, rotateTokens, type RootStateWithAuth } from '@/lib/signed-in/auth-slice';
import { isTokenExpired } from '@/lib/token';
import { toast } from 'sonner';
import { errorMessage, isApiError, toErrorEnvelope, type ApiError } from './api-error';
import { isEnvelope } from './envelope';

/**
 * The one request layer of both APIs (docs/product/web.md §4, §7, §8): bearer header, refresh before a request whose
 * token expires within 30 s, one retry after 401/403, ONE shared in-flight refresh for every caller
 * (the portal revokes a reused refresh token, so two parallel refreshes would sign the user out),
 * envelope unwrapping and the generic error shapes.
 */

export interface ExtraOptions {
  /** Calls that must not refresh or retry (sign-in, rotate, forgot/reset password). */
  skipAuth?: boolean;
}

type Dispatchable = Pick<BaseQueryApi, 'dispatch' | 'getState'>;

let onSessionEnded: () => void = () => {
  if (window.location.pathname !== '/auth/signin') window.location.assign('/auth/signin');
};

/** The app installs its router navigation here; the default is a full page load. */
export function setSessionEndedHandler(handler: () => void) {
  onSessionEnded = handler;
}

/** Ends the local session: state, refresh cookie (docs/product/web.md §4 "failed rotation ... clears the session"). */
export function endSession(api: Pick<BaseQueryApi, 'dispatch'>) {
  api.dispatch(clearCredentials());
  refreshCookie.remove();
}

/**
 * `rejected`: the server (or a missing cookie) says the sign-in is over — the session ends.
 * `unreachable`: no answer (network down, request aborted by leaving the page, a 5xx) — the session
 * and the cookie stay, the call fails like any other transport failure and a later call tries again.
 * Ending the session here would sign the user out whenever a page is left mid-refresh.
 */
export type RefreshOutcome = 'ok' | 'rejected' | 'unreachable';

let inFlightRefresh: Promise<RefreshOutcome> | null = null;

/**
 * Rotates the tokens with the refresh cookie. Every concurrent caller shares the same promise; when
 * the server refuses, the session is cleared, the cookie deleted and the user sent to /auth/signin.
 * Resolves true when the session goes on with a new token.
 */
export async function refreshSession(api: Dispatchable): Promise<boolean> {
  return (await sharedRefresh(api)) === 'ok';
}

/** The same refresh, telling a refused sign-in (`rejected`) from a portal that did not answer. */
export function refreshSessionOutcome(api: Dispatchable): Promise<RefreshOutcome> {
  return sharedRefresh(api);
}

/**
 * Tabs of the same browser share the refresh cookie. A Web Lock serialises their refreshes and the
 * cookie is read inside it, so a second tab uses the token the first one just received instead of
 * replaying the spent one (which the portal would treat as reuse and revoke the whole sign-in).
 */
function acrossTabs<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? (locks.request('pa-token-refresh', task) as Promise<T>) : task();
}

function sharedRefresh(api: Dispatchable): Promise<RefreshOutcome> {
  inFlightRefresh ??= acrossTabs(() => doRefresh(api)).finally(() => {
    inFlightRefresh = null;
  });
  return inFlightRefresh;
}

async function doRefresh(api: Dispatchable): Promise<RefreshOutcome> {
  const refreshToken = refreshCookie.get();
  if (refreshToken) {
    let response: Response;
    try {
      response = await fetch(`${PORTAL_API_URL}/api/accounts/rotate-token`, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      });
    } catch (error) {
      console.error('Token rotation error:', error);
      return 'unreachable';
    }
    if (response.status >= 500) {
      console.error('Token rotation error: the server answered', response.status);
      return 'unreachable';
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch (error) {
      // A success whose body was cut off (the page left or reloaded while it was read): the server
      // has rotated, and its Set-Cookie already holds the new token. Not a refusal, so the session
      // and that cookie stay; ending them here signed people out on a quick navigation.
      if (response.ok) {
        console.error('Token rotation error: the answer was cut off', error);
        return 'unreachable';
      }
    }
    const env = isEnvelope(body)
      ? (body as Envelope<{ accessToken?: string; refreshToken?: string }>)
      : null;
    if (response.ok && env?.success && env.data?.accessToken) {
      api.dispatch(
        rotateTokens({ accessToken: env.data.accessToken, refreshToken: env.data.refreshToken }),
      );
      if (env.data.refreshToken) refreshCookie.set(env.data.refreshToken);
      return 'ok';
    }
  }
  endSession(api);
  onSessionEnded();
  return 'rejected';
}

/** What a call gets when its refresh failed: a 401 when refused, a transport error when unreachable. */
function refreshFailure(outcome: Exclude<RefreshOutcome, 'ok'>): { error: ApiError } {
  if (outcome === 'unreachable') {
    return { error: { status: 'FETCH_ERROR', data: toErrorEnvelope(undefined) } };
  }
  const message = 'Token refresh failed';
  return {
    error: {
      status: 401,
      data: {
        success: false,
        message,
        code: 'UNAUTHORIZED',
        status: 401,
        data: null,
        errors: [{ message, code: 'UNAUTHORIZED' }],
      },
    },
  };
}

/** Normalises fetchBaseQuery's outcome: unwraps a successful envelope, shapes every failure. */
function normalise(
  result: Awaited<ReturnType<BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError>>>,
): { data: unknown } | { error: ApiError } {
  if (result.error) {
    const err = result.error;
    if (typeof err.status === 'number') {
      return { error: { status: err.status, data: toErrorEnvelope(err.data, err.status) } };
    }
    const status =
      err.status === 'CUSTOM_ERROR' ? 'FETCH_ERROR' : (err.status as ApiError['status']);
    const httpStatus = 'originalStatus' in err ? err.originalStatus : undefined;
    return { error: { status, data: toErrorEnvelope(undefined, httpStatus) } };
  }
  const body = result.data;
  if (isEnvelope(body)) {
    if (!body.success) {
      return { error: { status: body.status || 500, data: toErrorEnvelope(body, body.status) } };
    }
    return { data: body.data };
  }
  // Not an envelope: a file download (blob) or an empty answer passes through unchanged.
  return { data: body };
}

export interface BaseQueryOptions {
  baseUrl: string;
  timeout?: number;
  /** Extra headers, e.g. the CSRF form token of the Power 7 API. */
  extraHeaders?: () => Record<string, string>;
}

export function createBaseQuery({
  baseUrl,
  timeout,
  extraHeaders,
}: BaseQueryOptions): BaseQueryFn<string | FetchArgs, unknown, ApiError, ExtraOptions> {
  const raw = fetchBaseQuery({
    baseUrl,
    credentials: 'include',
    timeout,
    // JSON when the server says so; an HTML error page then keeps its HTTP status (docs/product/web.md §8).
    responseHandler: 'content-type',
    prepareHeaders: (headers, { getState }) => {
      const token = (getState() as RootStateWithAuth).auth.accessToken;
      if (token && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
      for (const [name, value] of Object.entries(extraHeaders?.() ?? {})) headers.set(name, value);
      return headers;
    },
  });
  const tokenOf = (api: BaseQueryApi) => (api.getState() as RootStateWithAuth).auth.accessToken;

  return async (args, api, extraOptions = {}) => {
    if (!extraOptions.skipAuth) {
      const token = tokenOf(api);
      if (token && isTokenExpired(token)) {
        const outcome = await sharedRefresh(api);
        if (outcome !== 'ok') return refreshFailure(outcome);
      }
    }
    const tokenUsed = tokenOf(api);
    let result = normalise(await raw(args, api, extraOptions));
    if (
      !extraOptions.skipAuth &&
      tokenUsed &&
      'error' in result &&
      (result.error.status === 401 || result.error.status === 403)
    ) {
      // Another caller may already have rotated the token while this one was in flight: then the
      // new token is simply used; otherwise this caller refreshes (or joins the refresh under way).
      if (tokenOf(api) === tokenUsed) {
        const outcome = await sharedRefresh(api);
        if (outcome !== 'ok') return refreshFailure(outcome);
      }
      if (tokenOf(api)) result = normalise(await raw(args, api, extraOptions));
    }
    // Transport failures and server faults are told once, here; 4xx answers belong to the forms.
    if ('error' in result) {
      const { status } = result.error;
      if (typeof status === 'string' || status >= 500) {
        toast.error(errorMessage(result.error), { id: `api-error-${status}` });
      }
    }
    return result;
  };
}

/** Thrown by a verification whose answer is a success without data (docs/product/web.md §8). */
export const SESSION_INVALID_MESSAGE = 'Authentication verification failed';

/**
 * True only for an answer that says the sign-in is no longer valid: 401/403 (the request layer has
 * already refreshed and retried once), another `success: false` answer of the server (4xx), or a
 * success without data. Aborted requests, network failures, time-outs and 5xx answers say nothing about the
 * session, so they must never end it.
 */
export function isSessionRejection(error: unknown): boolean {
  if (!isApiError(error)) {
    // RTK Query reports a throwing transformResponse (success without data) as a serialized error.
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as { message?: unknown }).message === SESSION_INVALID_MESSAGE
    );
  }
  const { status } = error;
  if (typeof status !== 'number') return false;
  // 408/429 say "not now", not "not you"; every other answer below 500 is the server's verdict.
  return status < 500 && status !== 408 && status !== 429;
}
