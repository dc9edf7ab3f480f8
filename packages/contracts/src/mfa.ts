import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './accounts';
import { singleLineText } from './text';

/**
 * Two-step sign-in (docs/reference/two-step-sign-in.md, ADR 011): the forms and answers shared by
 * the web app and the portal API.
 */

/** The second steps an account can offer after its password. */
export const SECOND_STEP_METHODS = ['totp', 'recovery-code', 'passkey'] as const;
export type SecondStepMethod = (typeof SECOND_STEP_METHODS)[number];

/** Who a company requires a second step of. */
export const MFA_REQUIREMENTS = ['nobody', 'everyone', 'permissions'] as const;

const mfaToken = z.string().min(1).max(512);

/** A 6-digit code from an authenticator app (spaces allowed, as apps show `123 456`). */
export const totpCodeSchema = z
  .string()
  .transform((value) => value.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your app'));

/** A recovery code as printed (`abcde-fghjk`); case, spaces and dashes do not matter. */
export const recoveryCodeSchema = singleLineText()
  .trim()
  .min(10, 'Enter one of your recovery codes')
  .max(32, 'Enter one of your recovery codes');

/** The sign-in answer when the password was right but a second step (or enrolment) must follow. */
export const mfaChallengeSchema = z.object({
  mfaRequired: z.literal(true),
  /** The company requires a second step and the account has none: enrol before anything else. */
  enrolmentRequired: z.boolean(),
  mfaToken: z.string(),
  methods: z.array(z.enum(SECOND_STEP_METHODS)),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** `POST /api/accounts/sign-in/mfa`: the token and exactly one of a code, a recovery code or a passkey. */
export const secondStepSchema = z
  .object({
    mfaToken,
    code: totpCodeSchema.optional(),
    recoveryCode: recoveryCodeSchema.optional(),
    passkey: z.record(z.string(), z.unknown()).optional(),
  })
  .refine(
    (body) =>
      [body.code, body.recoveryCode, body.passkey].filter((v) => v !== undefined).length === 1,
    { message: 'Give exactly one of code, recoveryCode or passkey', path: ['code'] },
  );

/** The second-step form of the sign-in page. */
export const secondStepFormSchema = z.object({ code: totpCodeSchema });
export const recoveryFormSchema = z.object({ recoveryCode: recoveryCodeSchema });

const currentPassword = z.string().min(1, 'Enter your current password').max(PASSWORD_MAX_LENGTH);

/** Set-up calls take the current password (signed in) or the enrolment `mfaToken` (forced enrolment). */
export const enrolmentProofSchema = z
  .object({ currentPassword: currentPassword.optional(), mfaToken: mfaToken.optional() })
  .refine((body) => Boolean(body.currentPassword) !== Boolean(body.mfaToken), {
    message: 'Enter your current password',
    path: ['currentPassword'],
  });

export const totpSetupAnswerSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });

export const totpConfirmSchema = z.object({ code: totpCodeSchema, mfaToken: mfaToken.optional() });

export const totpDisableSchema = z.object({ currentPassword, code: totpCodeSchema });

export const passkeyNameSchema = singleLineText()
  .trim()
  .min(1, 'Name this passkey')
  .max(60, 'At most 60 characters');

export const passkeySchema = z.object({
  _id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** `POST /api/accounts/passkeys`: the new passkey's name and the browser's registration answer. */
export const passkeyRegisterSchema = z.object({
  name: passkeyNameSchema,
  response: z.record(z.string(), z.unknown()),
  mfaToken: mfaToken.optional(),
});

/** `GET /api/accounts/mfa`: what the signed-in account has. */
export const mfaStatusSchema = z.object({
  totp: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  passkeys: z.array(passkeySchema),
  /** The company's policy requires this account to keep a second step. */
  required: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatusSchema>;

/** A company's policy; `permissionCodes` matter with `permissions` only. */
export const mfaPolicySchema = z
  .object({
    requireFor: z.enum(MFA_REQUIREMENTS),
    permissionCodes: z.array(singleLineText().trim().min(1).max(100)).max(200),
  })
  .refine((policy) => policy.requireFor !== 'permissions' || policy.permissionCodes.length > 0, {
    message: 'Choose at least one permission',
    path: ['permissionCodes'],
  });
export type MfaPolicy = z.infer<typeof mfaPolicySchema>;

/**
 * What an administrator's reset of a user's second step removed and did: every sign-in of the user
 * ended, and whether the company policy has them set up a new one at their next sign-in.
 */
export const secondStepResetSchema = z.object({
  totp: z.boolean(),
  recoveryCodes: z.number(),
  passkeys: z.number(),
  signInsEnded: z.number(),
  enrolmentRequired: z.boolean(),
});
export type SecondStepReset = z.infer<typeof secondStepResetSchema>;

/**
 * A policy to look at before saving it (`GET /api/security/mfa-policy/coverage`): `permissionCodes`
 * comma-separated, as a query string carries a list.
 */
export const mfaCoverageQuerySchema = z.object({
  requireFor: z.enum(MFA_REQUIREMENTS),
  permissionCodes: z
    .string()
    .max(20_000)
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    ),
});

const coveredUserSchema = z.object({ _id: z.string(), userName: z.string(), name: z.string() });
/** A group of users: how many, and the first few by name. */
const coveredGroupSchema = z.object({ count: z.number(), sample: z.array(coveredUserSchema) });

/**
 * Who a policy reaches among the company's active users: who already has a second step (app or
 * passkey), and who the policy would ask to set one up at their next sign-in.
 */
export const mfaCoverageSchema = z.object({
  activeUsers: z.number(),
  withSecondStep: coveredGroupSchema,
  required: z.number(),
  toSetUp: coveredGroupSchema,
});
export type MfaCoverage = z.infer<typeof mfaCoverageSchema>;
