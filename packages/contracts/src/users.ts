import { z } from 'zod';
import { passwordSchema, phoneSchema } from './accounts';
import { anyOf } from './list-query';
import { singleLineText } from './text';

/**
 * Users of a company as the portal's `/api/users` resource exposes them (docs/product/services.md §4), shared by the
 * web app's forms and the portal's route schemas so both validate with the same rules.
 */

export const USER_STATUSES = ['active', 'inactive', 'locked'] as const;
export const userStatusSchema = z.enum(USER_STATUSES);
export type UserStatus = z.infer<typeof userStatusSchema>;

/** The user status list (`GET /api/users/statuses`). */
export const USER_STATUS_LIST: { value: UserStatus; label: string; description: string }[] = [
  { value: 'active', label: 'Active', description: 'Can sign in.' },
  { value: 'inactive', label: 'Inactive', description: 'Cannot sign in; kept for the record.' },
  { value: 'locked', label: 'Locked', description: 'Blocked from signing in until unlocked.' },
];
export const userStatusItemSchema = z.object({
  value: userStatusSchema,
  label: z.string(),
  description: z.string(),
});

/** Sort fields a user list accepts. */
export const USER_SORT_FIELDS = [
  '_id',
  'userName',
  'email',
  'userFirstName',
  'userLastName',
  'status',
  'lastSignInAt',
  'createdAt',
  'updatedAt',
] as const;

/**
 * `filters[...]` a user list accepts; each takes one value or several joined by commas
 * (`filters[status]=active,locked`: any of them).
 */
export const userFiltersSchema = z.strictObject({
  status: anyOf(userStatusSchema, 'a status (active, inactive, locked)').optional(),
  roleId: anyOf(z.uuid(), 'a role id').optional(),
});

const idList = (what: string) => z.array(z.uuid(`must be a list of ${what} ids`)).max(200);

/**
 * A sign-in name: ASCII letters, digits and `._-` only, so no two names look alike. The shared text
 * rules run before the trim, so an invisible character at either end (U+FEFF, which trim removes)
 * is refused, not silently dropped.
 */
export const userNameSchema = singleLineText()
  .trim()
  .min(3, 'User name must be at least 3 characters')
  .max(64, 'User name must be at most 64 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'User name may hold letters, digits, dots, dashes and underscores',
  );
const emailSchema = z.email('Enter a valid email address').max(254);
const nameSchema = (label: string) =>
  singleLineText().trim().min(1, `Enter the ${label}`).max(100, `The ${label} is too long`);

/** `POST /api/users`. */
export const createUserSchema = z.object({
  userName: userNameSchema,
  email: emailSchema,
  userFirstName: nameSchema('first name'),
  userLastName: nameSchema('last name'),
  phone: phoneSchema.default(''),
  status: userStatusSchema.default('active'),
  password: passwordSchema,
  roleIds: idList('role').default([]),
  permissionIds: idList('permission').default([]),
});
export type CreateUserBody = z.input<typeof createUserSchema>;

/** `PATCH /api/users/:id`: any subset of the fields, plus the `version` the edit was based on. */
export const updateUserSchema = z.object({
  version: z.number().int().min(1),
  userName: userNameSchema.optional(),
  email: emailSchema.optional(),
  userFirstName: nameSchema('first name').optional(),
  userLastName: nameSchema('last name').optional(),
  phone: phoneSchema.optional(),
  status: userStatusSchema.optional(),
  roleIds: idList('role').optional(),
  permissionIds: idList('permission').optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserSchema>;

/** A user as every `/api/users` answer carries it (never the password hash). */
export const userSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  email: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  phone: z.string(),
  status: userStatusSchema,
  roleIds: z.array(z.string()),
  /** The roles' names, so anyone who may read users sees them (without `roles.read`). */
  roles: z.array(z.object({ _id: z.string(), name: z.string() })),
  /** Permissions given directly, next to those of the roles. */
  permissionIds: z.array(z.string()),
  lastSignInAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  version: z.number().int(),
});
export type User = z.infer<typeof userSchema>;
