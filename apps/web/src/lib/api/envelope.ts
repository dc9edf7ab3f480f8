import type { Envelope } from '@pa/contracts/envelope';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isErrorItem = (item: unknown) =>
  isRecord(item) &&
  typeof item.message === 'string' &&
  typeof item.code === 'string' &&
  (item.field === undefined || typeof item.field === 'string');

/**
 * True when a parsed JSON value has the shape of the response envelope (docs/product/services.md §2).
 * The same test as `isEnvelope` of @pa/contracts, written by hand so the request layer does not put
 * zod into the first load of every page; envelope.test.ts checks both agree.
 */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  return (
    isRecord(value) &&
    typeof value.success === 'boolean' &&
    typeof value.message === 'string' &&
    typeof value.code === 'string' &&
    Number.isSafeInteger(value.status) &&
    'data' in value &&
    Array.isArray(value.errors) &&
    // Array.from turns holes into undefined: `every` alone skips them, zod rejects them.
    Array.from(value.errors).every(isErrorItem)
  );
}
