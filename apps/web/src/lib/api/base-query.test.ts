import { configureStore } from '@reduxjs/toolkit';
import { createApi } from '@reduxjs/toolkit/query';
import Cookies from 'js-cookie';
import { http, HttpResponse, delay } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authSlice, setCredentials } from '@/lib/signed-in/auth-slice';
import { failEnvelope, fakeJwt, okEnvelope, PORTAL, server } from '@/testing/msw';
import type { ApiError } from './api-error';
import { createBaseQuery, isSessionRejection, setSessionEndedHandler } from './base-query';

const api = createApi({
  reducerPath: 'testApi',
  baseQuery: createBaseQuery({ baseUrl: PORTAL, timeout: 300 }),
  endpoints: (build) => ({
    item: build.query<{ n: number; auth: string | null }, number>({ query: (n) => `/items/${n}` }),
  }),
});

function makeStore(accessToken: string) {
  const store = configureStore({
    reducer: { auth: authSlice.reducer, [api.reducerPath]: api.reducer },
    middleware: (gd) => gd().concat(api.middleware),
  });
  store.dispatch(setCredentials({ userDetails: { userName: 'ada' }, accessToken }));
  return store;
}

const fetchItem = (store: ReturnType<typeof makeStore>, n: number) =>
  store.dispatch(api.endpoints.item.initiate(n, { forceRefetch: true }));

/** Items answer with the bearer they saw; `valid` decides which bearers the server accepts. */
function serveItems(valid: (auth: string | null) => boolean) {
  server.use(
    http.get(`${PORTAL}/items/:n`, ({ request, params }) => {
      const auth = request.headers.get('Authorization');
      if (!valid(auth))
        return HttpResponse.json(failEnvelope(401, 'UNAUTHORIZED', 'Expired'), { status: 401 });
      return HttpResponse.json(okEnvelope({ n: Number(params.n), auth }));
    }),
  );
}

/** The rotate endpoint: counts calls, hands out `fresh`, optionally slowly. */
function serveRotate(fresh: string, opts: { fail?: boolean; ms?: number } = {}) {
  const calls: unknown[] = [];
  server.use(
    http.post(`${PORTAL}/accounts/rotate-token`, async ({ request }) => {
      calls.push(await request.json());
      if (opts.ms) await delay(opts.ms);
      if (opts.fail)
        return HttpResponse.json(failEnvelope(401, 'UNAUTHORIZED', 'Reused'), { status: 401 });
      return HttpResponse.json(
        okEnvelope({ accessToken: fresh, refreshToken: `rt-${calls.length}` }),
      );
    }),
  );
  return calls;
}

/** A 200 whose body breaks off mid-way, as when the page is left while the answer is read. */
function cutOffAnswer() {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"success":true,"data":{"accessT'));
      controller.error(new TypeError('network error'));
    },
  });
  return new HttpResponse(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

let ended: ReturnType<typeof vi.fn<() => void>>;
beforeEach(() => {
  ended = vi.fn<() => void>();
  setSessionEndedHandler(ended);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('base query', () => {
  it('sends the bearer token and unwraps the envelope', async () => {
    const token = fakeJwt(600);
    serveItems(() => true);
    const store = makeStore(token);
    const result = await fetchItem(store, 7);
    expect(result.data).toEqual({ n: 7, auth: `Bearer ${token}` });
  });

  it('refreshes first when the token expires within 30 s, with the cookie, and stores the new one', async () => {
    const fresh = fakeJwt(900);
    Cookies.set('refreshToken', 'rt-0');
    const calls = serveRotate(fresh);
    serveItems((auth) => auth === `Bearer ${fresh}`);
    const store = makeStore(fakeJwt(20));
    const result = await fetchItem(store, 1);
    expect(result.data?.auth).toBe(`Bearer ${fresh}`);
    expect(calls).toEqual([{ refreshToken: 'rt-0' }]);
    expect(store.getState().auth.accessToken).toBe(fresh);
    expect(store.getState().auth.userDetails).toEqual({ userName: 'ada' });
    expect(Cookies.get('refreshToken')).toBe('rt-1');
  });

  it('shares ONE refresh between concurrent callers with an expiring token', async () => {
    const fresh = fakeJwt(900);
    Cookies.set('refreshToken', 'rt-0');
    const calls = serveRotate(fresh, { ms: 30 });
    serveItems((auth) => auth === `Bearer ${fresh}`);
    const store = makeStore(fakeJwt(5));
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => fetchItem(store, n)));
    expect(results.map((r) => r.data?.n)).toEqual([1, 2, 3, 4, 5]);
    expect(calls).toHaveLength(1);
  });

  it('after concurrent 401s refreshes once and retries each request once', async () => {
    const stale = fakeJwt(600);
    const fresh = fakeJwt(900);
    Cookies.set('refreshToken', 'rt-0');
    const calls = serveRotate(fresh, { ms: 20 });
    let hits = 0;
    server.use(
      http.get(`${PORTAL}/items/:n`, ({ request, params }) => {
        hits++;
        const auth = request.headers.get('Authorization');
        if (auth !== `Bearer ${fresh}`) {
          return HttpResponse.json(failEnvelope(401, 'UNAUTHORIZED', 'Revoked'), { status: 401 });
        }
        return HttpResponse.json(okEnvelope({ n: Number(params.n), auth }));
      }),
    );
    const store = makeStore(stale);
    const results = await Promise.all([1, 2, 3].map((n) => fetchItem(store, n)));
    expect(results.every((r) => r.data?.auth === `Bearer ${fresh}`)).toBe(true);
    expect(calls).toHaveLength(1);
    expect(hits).toBe(6);
  });

  it('retries only once: a second 403 is returned, not looped', async () => {
    Cookies.set('refreshToken', 'rt-0');
    const calls = serveRotate(fakeJwt(900));
    let hits = 0;
    server.use(
      http.get(`${PORTAL}/items/:n`, () => {
        hits++;
        return HttpResponse.json(failEnvelope(403, 'FORBIDDEN', 'Not allowed'), { status: 403 });
      }),
    );
    const store = makeStore(fakeJwt(600));
    const result = await fetchItem(store, 1);
    expect(hits).toBe(2);
    expect(calls).toHaveLength(1);
    expect(result.error).toMatchObject({
      status: 403,
      data: { code: 'FORBIDDEN', message: 'Not allowed' },
    });
    expect(store.getState().auth.isAuthenticated).toBe(true);
  });

  it('a failed refresh clears the session and the cookie and goes to sign-in', async () => {
    Cookies.set('refreshToken', 'rt-used');
    serveRotate('never', { fail: true });
    serveItems(() => true);
    const store = makeStore(fakeJwt(10));
    const result = await fetchItem(store, 1);
    expect(result.error).toMatchObject({ status: 401, data: { message: 'Token refresh failed' } });
    expect(store.getState().auth).toEqual({
      userDetails: null,
      accessToken: null,
      refreshToken: null,
      isAuthenticated: false,
    });
    expect(Cookies.get('refreshToken')).toBeUndefined();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it.each([
    ['cannot reach the server', () => HttpResponse.error()],
    ['meets a server fault', () => HttpResponse.text('<h1>Bad gateway</h1>', { status: 502 })],
    // Headers arrived, then the body was cut off: what a reload does to a rotation's answer.
    ['loses its answer after the headers', () => cutOffAnswer()],
  ])(
    'a refresh that %s keeps the session and the cookie and fails the call as a transport error',
    async (_, answer) => {
      Cookies.set('refreshToken', 'rt-0');
      server.use(http.post(`${PORTAL}/accounts/rotate-token`, answer));
      serveItems(() => true);
      const store = makeStore(fakeJwt(10));
      const result = await fetchItem(store, 1);
      expect((result.error as ApiError).status).toBe('FETCH_ERROR');
      expect(store.getState().auth.isAuthenticated).toBe(true);
      expect(Cookies.get('refreshToken')).toBe('rt-0');
      expect(ended).not.toHaveBeenCalled();

      // Once the server answers again, the next call refreshes with the same cookie.
      const calls = serveRotate(fakeJwt(900));
      const later = await fetchItem(store, 2);
      expect(later.data?.n).toBe(2);
      expect(calls).toEqual([{ refreshToken: 'rt-0' }]);
    },
  );

  it('without a refresh cookie the session ends without calling the server', async () => {
    const calls = serveRotate(fakeJwt(900));
    serveItems(() => true);
    const store = makeStore('not-a-jwt');
    const result = await fetchItem(store, 1);
    expect(calls).toHaveLength(0);
    expect((result.error as ApiError).status).toBe(401);
    expect(store.getState().auth.isAuthenticated).toBe(false);
    expect(ended).toHaveBeenCalled();
  });

  it('shapes failures: server envelope, foreign body, network, timeout, parsing', async () => {
    const store = makeStore(fakeJwt(600));
    server.use(
      http.get(`${PORTAL}/items/1`, () =>
        HttpResponse.json(failEnvelope(404, 'NOT_FOUND', 'No such item'), { status: 404 }),
      ),
      http.get(`${PORTAL}/items/2`, () =>
        HttpResponse.text('<h1>Bad gateway</h1>', { status: 502 }),
      ),
      http.get(`${PORTAL}/items/3`, () => HttpResponse.error()),
      http.get(`${PORTAL}/items/4`, async () => {
        await delay(1000);
        return HttpResponse.json(okEnvelope({}));
      }),
      http.get(
        `${PORTAL}/items/5`,
        () => new HttpResponse('{not json', { headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    const [notFound, foreign, network, timeout, parsing] = await Promise.all([
      fetchItem(store, 1),
      fetchItem(store, 2),
      fetchItem(store, 3),
      fetchItem(store, 4),
      fetchItem(store, 5),
    ]);
    expect(notFound.error).toMatchObject({
      status: 404,
      data: { code: 'NOT_FOUND', message: 'No such item' },
    });
    const fallback = {
      success: false,
      message: 'NETWORK_ERROR',
      code: 'ERROR',
      data: null,
      errors: [{ message: 'Unexpected error', code: 'ERROR_CODE' }],
    };
    expect(foreign.error).toEqual({ status: 502, data: { ...fallback, status: 502 } });
    expect(network.error).toEqual({ status: 'FETCH_ERROR', data: { ...fallback, status: 500 } });
    expect((timeout.error as ApiError).status).toBe('TIMEOUT_ERROR');
    expect((parsing.error as ApiError).status).toBe('PARSING_ERROR');
    expect(store.getState().auth.isAuthenticated).toBe(true);
  });
});

describe('isSessionRejection', () => {
  const answer = (status: ApiError['status']): ApiError => ({
    status,
    data: { success: false, message: 'x', code: 'X', status: 0, data: null, errors: [] },
  });

  it('is true only for answers that say the sign-in is invalid', () => {
    expect(isSessionRejection(answer(401))).toBe(true);
    expect(isSessionRejection(answer(403))).toBe(true);
    expect(isSessionRejection(answer(200))).toBe(true);
    expect(isSessionRejection(answer(404))).toBe(true);
    expect(
      isSessionRejection({ name: 'Error', message: 'Authentication verification failed' }),
    ).toBe(true);
  });

  it('is false for aborts, network failures, time-outs and server faults', () => {
    for (const status of [
      'FETCH_ERROR',
      'TIMEOUT_ERROR',
      'PARSING_ERROR',
      500,
      502,
      503,
    ] as const) {
      expect(isSessionRejection(answer(status))).toBe(false);
    }
    expect(isSessionRejection({ name: 'AbortError', message: 'Aborted' })).toBe(false);
    expect(isSessionRejection(undefined)).toBe(false);
  });
});
