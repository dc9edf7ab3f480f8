import { z } from 'zod';
import { userSchema, userStatusSchema } from './users';

/**
 * Changes to many users at once, the restorable delete and the CSV import
 * (docs/reference/bulk-import-palette.md).
 */

/** How many users one bulk change may name (the "select all N matching" ceiling too). */
export const BULK_MAX_IDS = 1000;

/** `PATCH /api/users/bulk`: the ids the administrator selected and what to change on each. */
export const bulkUserChangeSchema = z.strictObject({
  ids: z
    .array(z.uuid('must be a list of user ids'))
    .min(1, 'Select at least one user')
    .max(BULK_MAX_IDS, `At most ${BULK_MAX_IDS} users at once`),
  changes: z
    .strictObject({
      status: userStatusSchema.optional(),
      addRoleIds: z.array(z.uuid('must be a list of role ids')).max(50).optional(),
      removeRoleIds: z.array(z.uuid('must be a list of role ids')).max(50).optional(),
    })
    .refine(
      (c) => c.status !== undefined || c.addRoleIds?.length || c.removeRoleIds?.length,
      'Choose a status, a role to add or a role to remove',
    ),
});
export type BulkUserChange = z.infer<typeof bulkUserChangeSchema>;

const rowError = z.object({ code: z.string(), message: z.string() });

/** One user's outcome; `changed: false` when it already had what was asked. */
export const bulkUserResultSchema = z.discriminatedUnion('ok', [
  z.object({ id: z.string(), ok: z.literal(true), changed: z.boolean(), user: userSchema }),
  z.object({ id: z.string(), ok: z.literal(false), error: rowError }),
]);
export type BulkUserResult = z.infer<typeof bulkUserResultSchema>;

export const bulkUserAnswerSchema = z.object({
  results: z.array(bulkUserResultSchema),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type BulkUserAnswer = z.infer<typeof bulkUserAnswerSchema>;

/** `GET /api/users/ids`: every id matching a list's search and filters ("select all N matching"). */
export const userIdsAnswerSchema = z.object({
  ids: z.array(z.string()),
  total: z.number().int(),
  /** True when more than BULK_MAX_IDS users match (only the first ones are in `ids`). */
  truncated: z.boolean(),
});
export type UserIdsAnswer = z.infer<typeof userIdsAnswerSchema>;

/** `DELETE /api/users/:id` answer: until when `POST /api/users/:id/restore` brings the user back. */
export const deletedUserSchema = z.object({ _id: z.string(), restorableUntil: z.string() });
export type DeletedUser = z.infer<typeof deletedUserSchema>;

/** The CSV import's columns, in the template's order. */
export const IMPORT_COLUMNS = [
  'email',
  'userName',
  'firstName',
  'lastName',
  'phone',
  'roles',
  'status',
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

/** Limits of one import: rows and characters of the CSV text. */
export const IMPORT_MAX_ROWS = 500;
export const IMPORT_MAX_CHARS = 512 * 1024;

/** The template CSV the import page offers (roles: names separated by `;`). */
export const IMPORT_TEMPLATE =
  IMPORT_COLUMNS.join(',') +
  '\r\n' +
  'ada@example.com,ada.lovelace,Ada,Lovelace,+44 20 7946 0000,Viewer,active\r\n';

/** `POST /api/users/import?dryRun=…`: the CSV text, header row first. */
export const userImportBodySchema = z.strictObject({
  csv: z
    .string()
    .min(1, 'Paste or upload a CSV file')
    .max(IMPORT_MAX_CHARS, `The CSV may hold at most ${IMPORT_MAX_CHARS / 1024} KB`),
});
export const userImportQuerySchema = z.object({
  dryRun: z.enum(['true', 'false']).default('true'),
});

/** One row's outcome: `line` is the CSV line number (header = 1). */
export const importRowResultSchema = z.object({
  line: z.number().int(),
  email: z.string(),
  userName: z.string(),
  outcome: z.enum(['create', 'created', 'error']),
  userId: z.string().optional(),
  errors: z.array(z.object({ field: z.string(), message: z.string() })),
});
export type ImportRowResult = z.infer<typeof importRowResultSchema>;

export const importAnswerSchema = z.object({
  dryRun: z.boolean(),
  rows: z.array(importRowResultSchema),
  valid: z.number().int(),
  invalid: z.number().int(),
  created: z.number().int(),
});
export type ImportAnswer = z.infer<typeof importAnswerSchema>;
