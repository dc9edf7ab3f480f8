import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { v7 as uuidv7 } from 'uuid';

/**
 * The portal's tables (docs/decisions/002-accounts-and-tokens.md).
 *
 * - Primary keys are UUIDv7 (time-ordered), column `id`, exposed by the API as `_id`.
 * - Every tenant-owned row carries `company_id`; queries scope by the caller's company from the token.
 * - User names and emails are unique across ALL companies (case-insensitive), because sign-in takes a
 *   user name or email without a company: one login must name one account.
 * - `version` columns carry optimistic concurrency: an update says which version it was based on.
 */

export const id = () =>
  uuid('id')
    .primaryKey()
    .$defaultFn(() => uuidv7());
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
/** A required reference whose row goes when the row it points to goes. */
export const cascadeRef = (column: string, target: () => AnyPgColumn) =>
  uuid(column).notNull().references(target, { onDelete: 'cascade' });
export const companyRef = () => cascadeRef('company_id', () => companies.id);

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('companies_name_lower_uq').on(sql`lower(${t.name})`)],
);
