import type { FastifyInstance } from 'fastify';
import type { PermissionCode } from '@pa/contracts/permission-codes';
import { errorEnvelopeSchema } from '@pa/contracts/envelope';

/** Route-schema pieces shared by the administration resources (users, roles, permissions, audit). */

// One definition of the answer envelopes and the id parameter for every portal route.
export { idParams, ok, okEmpty } from './accounts/schemas';
import { authErrors, errors } from './accounts/schemas';

export const crudErrors = {
  400: errorEnvelopeSchema.describe('Validation error; `errors[].field` names the input at fault'),
  401: errorEnvelopeSchema.describe('Not signed in, or the sign-in ended'),
  403: errorEnvelopeSchema.describe('Missing permission, or the change would escalate privileges'),
  404: errorEnvelopeSchema.describe('No such row in your company'),
  409: errorEnvelopeSchema.describe('Stale version, taken name, or a protected row'),
} as const;

/**
 * The options every administration route of one resource starts from: the permission it needs
 * (checked after the group's sign-in check), its OpenAPI tag and bearer security, then its own schema.
 */
export function adminRoute(app: FastifyInstance, tag: string) {
  return <S extends object>(permission: PermissionCode, schema: S) => ({
    onRequest: app.requirePermission(permission),
    schema: { tags: [tag], security: [{ bearerAuth: [] }], ...schema },
  });
}

/** The refusals of an act on one user of the company (end their sign-ins, reset their second step). */
export const userActionErrors = {
  400: errors[400],
  ...authErrors,
  404: errors[400].describe('No such user in your company'),
} as const;
