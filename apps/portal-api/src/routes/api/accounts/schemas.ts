import { z } from 'zod';
import { userDetailsSchema as contractUserDetails } from '@pa/contracts/accounts';
import { envelopeSchema, errorEnvelopeSchema } from '@pa/contracts/envelope';

/**
 * User details as sign-in, verify and PATCH /accounts/me answer them: the contract's shape, with the
 * fields a client may find missing always present in the server's answer.
 */
export const userDetailsSchema = contractUserDetails.extend({
  phone: z.string(),
  status: z.string(),
  lastSignInAt: z.string().nullable(),
});

export const tokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });

/** What a completed sign-in answers (the password alone, a second step, a passkey, an enrolment). */
export const signedInSchema = userDetailsSchema.extend(tokenPairSchema.shape);

export const errors = {
  400: errorEnvelopeSchema.describe('Validation error; `errors[].field` names the input at fault'),
  401: errorEnvelopeSchema.describe('Not signed in, or the sign-in ended'),
} as const;
export const authErrors = {
  401: errors[401],
  403: errorEnvelopeSchema.describe('Missing permission'),
} as const;

export const ok = <T extends z.ZodType>(data: T) => envelopeSchema(data);
export const okEmpty = envelopeSchema(z.null());

export const idParams = z.object({
  id: z.uuid('must be an id').meta({ examples: ['019a6b2e-7c1d-7f3a-9b4e-2d8c5a1f0e63'] }),
});

/** How many sign-ins a request ended. */
export const revokedSchema = z.object({ revoked: z.number().int() });
