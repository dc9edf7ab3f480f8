import { z } from 'zod';
import { multiLineText, singleLineText } from './text';

/** Roles of a company as the portal's `/api/roles` resource exposes them (docs/product/services.md §3–§4). */

export const ROLE_SORT_FIELDS = [
  '_id',
  'name',
  'isSystem',
  'userCount',
  'createdAt',
  'updatedAt',
] as const;

const booleanText = z.enum(['true', 'false'], 'must be true or false');

/** `filters[...]` a role list accepts. */
export const roleFiltersSchema = z.strictObject({
  isSystem: booleanText.optional(),
  permissionId: z.uuid('must be a permission id').optional(),
});

const nameSchema = singleLineText()
  .trim()
  .min(1, 'Enter the role name')
  .max(100, 'The role name must be at most 100 characters');
const descriptionSchema = multiLineText().trim().max(500, 'The description is too long');
const permissionIds = z.array(z.uuid('must be a list of permission ids')).max(500);

export const createRoleSchema = z.object({
  name: nameSchema,
  description: descriptionSchema.default(''),
  permissionIds: permissionIds.default([]),
});
export type CreateRoleBody = z.input<typeof createRoleSchema>;

export const updateRoleSchema = z.object({
  version: z.number().int().min(1),
  name: nameSchema.optional(),
  description: descriptionSchema.optional(),
  permissionIds: permissionIds.optional(),
});
export type UpdateRoleBody = z.infer<typeof updateRoleSchema>;

export const roleSchema = z.object({
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  permissionIds: z.array(z.string()),
  isSystem: z.boolean(),
  /** How many users of the company hold this role. */
  userCount: z.number().int(),
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Role = z.infer<typeof roleSchema>;
