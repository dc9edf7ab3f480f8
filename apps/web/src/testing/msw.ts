import { setupServer } from 'msw/node';
import type { Envelope } from '@pa/contracts/envelope';

/** The MSW server of the unit tests; each test file adds its handlers with `server.use`. */
export const server = setupServer();

export const PORTAL = 'http://localhost:3000/api';

export const okEnvelope = <T>(data: T): Envelope<T> => ({
  success: true,
  message: 'OK',
  code: 'OK',
  status: 200,
  data,
  errors: [],
});

export const failEnvelope = (status: number, code: string, message: string): Envelope<null> => ({
  success: false,
  message,
  code,
  status,
  data: null,
  errors: [{ message, code }],
});

/** An unsigned JWT whose `exp` is `secondsFromNow` away (the client only decodes it). */
export function fakeJwt(secondsFromNow: number, extra: Record<string, unknown> = {}) {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + secondsFromNow;
  return `${b64({ alg: 'EdDSA', typ: 'JWT' })}.${b64({ exp, ...extra })}.c2ln`;
}

/** A 400 validation failure whose `message` the server ties to `field`; `summary` heads it. */
export const fieldFailEnvelope = (
  field: string,
  message: string,
  summary = message,
): Envelope<null> => ({
  ...failEnvelope(400, 'VALIDATION_ERROR', summary),
  errors: [{ message, code: 'VALIDATION_ERROR', field }],
});
