import { z } from 'zod';
import { envelopeSchema, errorEnvelopeSchema } from '@pa/contracts/envelope';

export const roleRefSchema = z.object({ _id: z.string(), name: z.string() });

/** User details as sign-in, verify and PATCH /accounts/me answer them. */
export const userDetailsSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  email: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  phone: z.string(),
  status: z.string(),
  companyId: z.string(),
  companyName: z.string(),
  roles: z.array(roleRefSchema),
  permissions: z.array(z.string()),
  lastSignInAt: z.string().nullable(),
});

export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });

export const sessionSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  /** True for the sign-in the request's access token belongs to. */
  current: z.boolean(),
});

export const errors = {
  400: errorEnvelopeSchema.describe('Validation error; `errors[].field` names the input at fault'),
  401: errorEnvelopeSchema.describe('Not signed in, or the session ended'),
} as const;
export const authErrors = {
  401: errors[401],
  403: errorEnvelopeSchema.describe('Missing permission'),
} as const;

export const ok = <T extends z.ZodType>(data: T) => envelopeSchema(data);
export const okEmpty = envelopeSchema(z.null());
