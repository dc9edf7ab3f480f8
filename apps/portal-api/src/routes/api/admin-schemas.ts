import { z } from 'zod';
import { envelopeSchema, errorEnvelopeSchema } from '@pa/contracts/envelope';

/** Route-schema pieces shared by the administration resources (users, roles, permissions, audit). */

export const idParams = z.object({ id: z.uuid('must be an id') });

export const ok = <T extends z.ZodType>(data: T) => envelopeSchema(data);
export const okEmpty = envelopeSchema(z.null());

export const crudErrors = {
  400: errorEnvelopeSchema.describe('Validation error; `errors[].field` names the input at fault'),
  401: errorEnvelopeSchema.describe('Not signed in, or the session ended'),
  403: errorEnvelopeSchema.describe('Missing permission, or the change would escalate privileges'),
  404: errorEnvelopeSchema.describe('No such row in your company'),
  409: errorEnvelopeSchema.describe('Stale version, taken name, or a protected row'),
} as const;
