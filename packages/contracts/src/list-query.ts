import { z } from 'zod';
import {
  DEFAULT_PAGE,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type SortItem,
  type SortOrder,
} from './paging';
import { singleLineText } from './text';

export { DEFAULT_PAGE, DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type SortItem, type SortOrder };

export const sortOrderSchema = z.enum(['asc', 'desc']) satisfies z.ZodType<SortOrder>;

export const sortItemSchema = z.object({
  field: z.string().min(1),
  order: sortOrderSchema,
}) satisfies z.ZodType<SortItem>;

/** Parses `"_id:desc,name:asc"` (the wire form) into sort items; a missing order means ascending. */
export function parseSort(text: string): SortItem[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const [field = '', order = 'asc'] = part.split(':');
      return { field: field.trim(), order: order.trim().toLowerCase() as SortOrder };
    });
}

/** The inverse of `parseSort`, used by clients to build the query string. */
export function formatSort(items: readonly SortItem[]): string {
  return items.map((item) => `${item.field}:${item.order}`).join(',');
}

/**
 * The list query of every resource: `?page=1&pageSize=10&search=text&sort=_id:desc&filters[field]=value`.
 * `sortFields` whitelists what a resource can be sorted by; anything else is a validation error.
 * Strict: an unknown parameter (`pagesize`, `filter[status]`, `filters[status][$ne]`) is a 400
 * naming it, never ignored (which would answer the whole list). A resource with filters extends
 * `filters` with its own strict object; without, no filter is accepted.
 */
export function listQuerySchema<const F extends readonly [string, ...string[]]>(sortFields: F) {
  const fieldSchema = z.enum(sortFields);
  return z.strictObject({
    page: z.coerce.number().int().min(1).default(DEFAULT_PAGE),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
    search: singleLineText().trim().max(200).optional(),
    sort: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (!text) return [] as { field: F[number]; order: SortOrder }[];
        const items = parseSort(text);
        const parsed = z
          .array(z.object({ field: fieldSchema, order: sortOrderSchema }))
          .safeParse(items);
        if (!parsed.success) {
          ctx.addIssue({
            code: 'custom',
            message: `sort must be a list of field:order with field one of ${sortFields.join(', ')} and order asc or desc`,
          });
          return z.NEVER;
        }
        return parsed.data;
      }),
    filters: z.strictObject({}).optional(),
  });
}

/** Most values one multi-value filter takes. */
export const MAX_FILTER_VALUES = 50;

/**
 * A filter taking one value or several joined by commas (`filters[status]=active,locked`), parsed
 * into the list of values; `what` names one value in the error (`must be a status, or several…`).
 */
export function anyOf<T extends z.ZodType<string>>(value: T, what: string) {
  return z.string().transform((text, ctx) => {
    const parts = [...new Set(text.split(',').map((part) => part.trim()))].filter(Boolean);
    const parsed = z.array(value).min(1).max(MAX_FILTER_VALUES).safeParse(parts);
    if (!parsed.success) {
      ctx.addIssue({
        code: 'custom',
        message: `must be ${what}, or up to ${MAX_FILTER_VALUES} of them joined by commas`,
      });
      return z.NEVER;
    }
    return parsed.data as z.output<T>[];
  });
}

export type ListQuery<F extends string = string> = {
  page: number;
  pageSize: number;
  search?: string | undefined;
  sort: { field: F; order: SortOrder }[];
  filters?: Record<string, string | string[]> | undefined;
};

/** The paginated-list shape every list answer carries in `data`. */
export function paginatedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    page: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    totalPages: z.number().int(),
  });
}

export interface Paginated<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/** Builds the paginated shape from a page of items and the total count. */
export function paginate<T>(
  items: T[],
  total: number,
  page: number,
  pageSize: number,
): Paginated<T> {
  return { items, page, pageSize, total, totalPages: Math.ceil(total / pageSize) };
}
