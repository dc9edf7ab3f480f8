import fc from 'fast-check';
import { isEnvelope as contractsIsEnvelope } from '@pa/contracts/envelope';
import { describe, expect, it } from 'vitest';
import { isEnvelope } from './envelope';

const validItem = fc.record(
  { message: fc.string(), code: fc.string(), field: fc.string() },
  { requiredKeys: ['message', 'code'] },
);
/** An error item with one field missing or of any type. */
const itemLike = fc
  .tuple(validItem, fc.constantFrom('message', 'code', 'field'), fc.option(fc.anything()))
  .map(([item, key, value]) => {
    const copy: Record<string, unknown> = { ...item };
    if (value === null) delete copy[key];
    else copy[key] = value;
    return copy;
  });
const validEnvelope = fc.record({
  success: fc.boolean(),
  message: fc.string(),
  code: fc.string(),
  status: fc.integer(),
  data: fc.anything(),
  errors: fc.array(validItem, { maxLength: 3 }),
});
const KEYS = ['success', 'message', 'code', 'status', 'data', 'errors'] as const;
/** A valid envelope, or one with a single field removed or replaced (items and holes included). */
const envelopeLike = fc
  .tuple(
    validEnvelope,
    fc.option(fc.constantFrom(...KEYS)),
    fc.option(
      fc.oneof(
        fc.anything(),
        fc.double(),
        fc.array(fc.oneof(validItem, itemLike), { maxLength: 3 }),
        fc.sparseArray(validItem, { maxLength: 3 }),
      ),
    ),
  )
  .map(([envelope, key, value]) => {
    if (key === null) return envelope;
    const copy: Record<string, unknown> = { ...envelope };
    if (value === null) delete copy[key];
    else copy[key] = value;
    return copy;
  });

describe('isEnvelope (request layer)', () => {
  it('agrees with the contracts schema on envelope-like and arbitrary values', () => {
    fc.assert(
      fc.property(fc.oneof(envelopeLike, envelopeLike, fc.anything()), (value) => {
        expect(isEnvelope(value)).toBe(contractsIsEnvelope(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts a real envelope and rejects a foreign answer', () => {
    const ok = { success: true, message: 'OK', code: 'OK', status: 200, data: null, errors: [] };
    expect(isEnvelope(ok)).toBe(true);
    expect(isEnvelope({ ...ok, errors: [{ message: 'x', code: 'Y', field: 'name' }] })).toBe(true);
    expect(isEnvelope({ ...ok, status: '200' })).toBe(false);
    expect(isEnvelope('<html>')).toBe(false);
  });
});
