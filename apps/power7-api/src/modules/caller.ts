/**
 * The caller, from a verified access token (plugins/external/auth.ts verifies it). A module of its own
 * so the modules that record who did what (audit) need nothing from plugins/.
 */
export interface Caller {
  userId: string;
  companyId: string;
  /** The portal sign-in the token belongs to (`sid`). */
  sessionId: string | null;
  name: string | null;
  perms: ReadonlySet<string>;
  /** How the user signed in (`amr`: pwd, otp, hwk), for rules that want a second step. */
  amr: readonly string[];
}
