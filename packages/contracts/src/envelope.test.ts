import { describe, expect, it } from 'vitest';
import { fail, isEnvelope, ok } from './envelope';
import { codeOfStatus, ErrorCode } from './error-codes';

describe('envelope', () => {
  it('wraps data in a successful envelope whose status follows the code', () => {
    expect(ok({ a: 1 }, 'Created', ErrorCode.CREATED)).toEqual({
      success: true,
      message: 'Created',
      code: 'CREATED',
      status: 201,
      data: { a: 1 },
      errors: [],
    });
  });

  it('builds a failure with one error item by default and null data', () => {
    const envelope = fail(ErrorCode.NOT_FOUND, 'No such user');
    expect(envelope.status).toBe(404);
    expect(envelope.data).toBeNull();
    expect(envelope.errors).toEqual([{ message: 'No such user', code: 'NOT_FOUND' }]);
  });

  it('recognises envelopes and rejects foreign JSON', () => {
    expect(isEnvelope(ok([]))).toBe(true);
    expect(isEnvelope({ error: 'x' })).toBe(false);
    expect(isEnvelope(null)).toBe(false);
  });

  it('maps statuses to codes', () => {
    expect(codeOfStatus(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(codeOfStatus(502)).toBe('INTERNAL_ERROR');
    expect(codeOfStatus(418)).toBe('BAD_REQUEST');
  });
});
