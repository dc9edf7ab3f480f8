import { z } from 'zod';
import { multiLineText, singleLineText } from './text';

/** Permissions of a company as the portal's `/api/permissions` resource exposes them (docs/product/services.md §3–§4). */

export const PERMISSION_SORT_FIELDS = [
  '_id',
  'code',
  'name',
  'group',
  'isSystem',
  'createdAt',
  'updatedAt',
] as const;

export const permissionFiltersSchema = z.strictObject({
  group: singleLineText().trim().max(100).optional(),
  isSystem: z.enum(['true', 'false'], 'must be true or false').optional(),
});

/** A permission code: lower-case words joined by dots, e.g. `reports.export`. */
export const permissionCodeSchema = z
  .string()
  .trim()
  .min(3, 'The code must be at least 3 characters')
  .max(100, 'The code must be at most 100 characters')
  .regex(
    /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/,
    'The code is lower-case words joined by dots, e.g. reports.export',
  );
const nameSchema = singleLineText()
  .trim()
  .min(1, 'Enter the name')
  .max(100, 'The name is too long');
const descriptionSchema = multiLineText().trim().max(500, 'The description is too long');
const groupSchema = singleLineText().trim().max(100, 'The group is too long');

export const createPermissionSchema = z.object({
  code: permissionCodeSchema,
  name: nameSchema,
  description: descriptionSchema.default(''),
  group: groupSchema.default(''),
});
export type CreatePermissionBody = z.input<typeof createPermissionSchema>;

/** System permissions only take `description`; their code, name and group are fixed. */
export const updatePermissionSchema = z.object({
  version: z.number().int().min(1),
  code: permissionCodeSchema.optional(),
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  group: groupSchema.optional(),
});
export type UpdatePermissionBody = z.infer<typeof updatePermissionSchema>;

export const permissionSchema = z.object({
  _id: z.string(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  group: z.string(),
  isSystem: z.boolean(),
  /** How many roles of the company hold this permission. */
  roleCount: z.number().int(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Permission = z.infer<typeof permissionSchema>;
