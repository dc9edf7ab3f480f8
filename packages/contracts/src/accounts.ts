import { z } from 'zod';
import { singleLineSecret, singleLineText } from './text';

/**
 * Account forms shared by the web app and the portal API (docs/product/services.md §4), so the client and the
 * server validate with the same rules.
 */

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** A new password: 12 to 256 characters. */
export const passwordSchema = singleLineSecret()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const emailSchema = z.email('Enter a valid email address').max(254);

/**
 * The sign-in form: one "user name or email" field and the password. The form field is `login`;
 * `toSignInBody` turns it into the `{ userName | email, password }` body the portal accepts.
 */
export const signInFormSchema = z.object({
  login: singleLineText().trim().min(1, 'Enter your user name or email').max(254),
  password: z.string().min(1, 'Enter your password').max(PASSWORD_MAX_LENGTH),
});
export type SignInForm = z.infer<typeof signInFormSchema>;

/** The body of `POST /api/accounts/sign-in`: exactly one of userName or email, plus the password. */
export const signInSchema = z.union([
  z.object({
    userName: singleLineText().trim().min(1).max(254),
    password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  }),
  z.object({ email: emailSchema, password: z.string().min(1).max(PASSWORD_MAX_LENGTH) }),
]);
export type SignInBody = z.infer<typeof signInSchema>;

export function toSignInBody(form: SignInForm): SignInBody {
  const login = form.login.trim();
  return login.includes('@')
    ? { email: login, password: form.password }
    : { userName: login, password: form.password };
}

export const forgotPasswordSchema = z.object({ email: emailSchema });
export type ForgotPasswordBody = z.infer<typeof forgotPasswordSchema>;

export const resetPasswordSchema = z.object({
  token: z.string().min(1, 'The reset link is missing its token').max(1024),
  password: passwordSchema,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordSchema>;

/** The reset form adds a confirmation field that never leaves the browser. */
export const resetPasswordFormSchema = z
  .object({ password: passwordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
export type ResetPasswordForm = z.infer<typeof resetPasswordFormSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX_LENGTH),
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.infer<typeof changePasswordSchema>;

export const changePasswordFormSchema = changePasswordSchema
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  })
  .refine((v) => v.newPassword !== v.currentPassword, {
    message: 'The new password must differ from the current one',
    path: ['newPassword'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/**
 * `PATCH /api/accounts/me`: the fields a user may change about themselves. Changing the email needs
 * `currentPassword` (an access token alone must not be enough to take the account, ADR 007); it is
 * ignored otherwise.
 */
/** A phone number as people write it (empty for none); shared with the users resource. */
export const phoneSchema = z
  .string()
  .trim()
  .max(40, 'The phone number is too long')
  .regex(/^[0-9+()./ -]*$/, 'Enter a phone number (digits, spaces, + ( ) . / -)');

export const updateMeSchema = z
  .object({
    userFirstName: singleLineText().trim().min(1, 'Enter your first name').max(100),
    userLastName: singleLineText().trim().min(1, 'Enter your last name').max(100),
    email: emailSchema,
    phone: phoneSchema,
    currentPassword: z.string().min(1, 'Enter your current password').max(PASSWORD_MAX_LENGTH),
  })
  .partial();
export type UpdateMeBody = z.infer<typeof updateMeSchema>;

/** Whether an edit of the account changes its email (case-insensitive), so needs the password. */
export const emailChanges = (currentEmail: string, email: string | undefined) =>
  email !== undefined && email.trim().toLowerCase() !== currentEmail.toLowerCase();

/**
 * The account edit form: the API body's rules, and the current password required while the email
 * field differs from `currentEmail`.
 */
export const updateMeFormSchema = (currentEmail: string) =>
  updateMeSchema
    // An empty password field is no password (it is only shown while the email differs).
    .extend({ currentPassword: z.string().max(PASSWORD_MAX_LENGTH).optional() })
    .superRefine((form, ctx) => {
      if (emailChanges(currentEmail, form.email) && !form.currentPassword) {
        ctx.addIssue({
          code: 'custom',
          path: ['currentPassword'],
          message: 'Enter your current password to change your email',
        });
      }
    });

export type UpdateMeForm = z.infer<ReturnType<typeof updateMeFormSchema>>;

/** `POST /api/accounts/undo-email-change`: the token of the link mailed to the old address. */
export const undoEmailChangeSchema = z.object({
  token: z.string().min(1, 'The link is missing its token').max(1024),
});
export type UndoEmailChangeBody = z.infer<typeof undoEmailChangeSchema>;

/** Its answer: the address the account has again (a reset link to choose a new password went there). */
export const undoEmailChangeAnswerSchema = z.object({ email: z.string() });
export type UndoEmailChangeAnswer = z.infer<typeof undoEmailChangeAnswerSchema>;

/**
 * `GET /api/accounts/me/email-change`: an email change waiting for the new address to confirm it
 * (ADR 026), or null. The account keeps its email until then.
 */
export const pendingEmailChangeSchema = z.object({
  pending: z.object({ newEmail: z.string(), expiresAt: z.string() }).nullable(),
});
export type PendingEmailChange = z.infer<typeof pendingEmailChangeSchema>;

/** `POST /api/accounts/confirm-email-change`: the token of the link mailed to the new address. */
export const confirmEmailChangeSchema = z.object({
  token: z.string().min(1, 'The link is missing its token').max(1024),
});

/** User details as the sign-in, verify and `PATCH /accounts/me` answers carry them. */
export const userDetailsSchema = z.object({
  _id: z.string(),
  userName: z.string(),
  email: z.string(),
  userFirstName: z.string(),
  userLastName: z.string(),
  phone: z.string().optional(),
  status: z.string().optional(),
  companyId: z.string(),
  companyName: z.string(),
  roles: z.array(z.object({ _id: z.string(), name: z.string() })),
  permissions: z.array(z.string()),
  lastSignInAt: z.string().nullable().optional(),
});
export type UserDetails = z.infer<typeof userDetailsSchema>;

/** One live sign-in of the user (`GET /api/accounts/sessions`). */
export const accountSessionSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string(),
  expiresAt: z.string(),
  userAgent: z.string(),
  ip: z.string(),
  /** True for the sign-in the request's access token belongs to. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
