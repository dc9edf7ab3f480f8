import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatSort, listQuerySchema, paginate, parseSort } from './list-query';

const schema = listQuerySchema(['_id', 'name'] as const);

describe('list query', () => {
  it('applies the defaults', () => {
    expect(schema.parse({})).toEqual({ page: 1, pageSize: 10, sort: [] });
  });

  it('parses a multi-field sort and round-trips it', () => {
    const parsed = schema.parse({ sort: '_id:desc,name:asc', page: '3', pageSize: '25' });
    expect(parsed.sort).toEqual([
      { field: '_id', order: 'desc' },
      { field: 'name', order: 'asc' },
    ]);
    expect(parsed.page).toBe(3);
    expect(formatSort(parsed.sort)).toBe('_id:desc,name:asc');
    expect(parseSort('name')).toEqual([{ field: 'name', order: 'asc' }]);
  });

  it('rejects sort fields outside the whitelist, bad orders and oversized pages', () => {
    expect(schema.safeParse({ sort: 'password:asc' }).success).toBe(false);
    expect(schema.safeParse({ sort: 'name:sideways' }).success).toBe(false);
    expect(schema.safeParse({ pageSize: '101' }).success).toBe(false);
    expect(schema.safeParse({ page: '0' }).success).toBe(false);
  });

  it('refuses unknown parameters, top-level and in filters, naming them', () => {
    for (const query of [
      { pagesize: '5' },
      { filter: { status: 'x' } },
      { filters: { any: 'x' } },
    ]) {
      const parsed = schema.safeParse(query);
      expect(parsed.success, JSON.stringify(query)).toBe(false);
      expect(parsed.error?.issues[0]?.code).toBe('unrecognized_keys');
    }
    const extended = schema.extend({ filters: z.strictObject({ status: z.string() }).optional() });
    expect(extended.safeParse({ filters: { status: 'a' } }).success).toBe(true);
    expect(extended.safeParse({ filters: { status: 'a' }, extra: '1' }).success).toBe(false);
    expect(extended.safeParse({ filters: { status: 'a', $ne: '1' } }).success).toBe(false);
  });

  it('computes total pages', () => {
    expect(paginate([1, 2], 21, 3, 10)).toEqual({
      items: [1, 2],
      page: 3,
      pageSize: 10,
      total: 21,
      totalPages: 3,
    });
    expect(paginate([], 0, 1, 10).totalPages).toBe(0);
  });
});
