import { and, asc, eq } from 'drizzle-orm';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PortalTx } from '../../db/client';
import { passkeys } from '../../db/schema';
import type { RelyingParty } from './relying-party';

/**
 * @simplewebauthn/server and its X.509/ASN.1 dependencies (~200 files, ~0.2 s) load at the first
 * passkey step, not at every start of the portal.
 */
const webauthn = () => import('@simplewebauthn/server');
const webauthnHelpers = () => import('@simplewebauthn/server/helpers');

export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** The account's passkeys, oldest first. */
export function passkeysOf(db: PortalTx, userId: string): Promise<PasskeyRow[]> {
  return db
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(asc(passkeys.createdAt));
}

/** Renames one of the account's passkeys; false when the account has no passkey with that id. */
export async function renamePasskey(
  db: PortalTx,
  userId: string,
  id: string,
  name: string,
): Promise<boolean> {
  const renamed = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return renamed.length > 0;
}

/** Removes one of the account's passkeys (none when the id is not the account's). */
export async function removePasskey(db: PortalTx, userId: string, id: string): Promise<void> {
  await db.delete(passkeys).where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
}

/**
 * Options to create a discoverable passkey (resident key: "Sign in with a passkey" finds it without
 * a user name). The WebAuthn user handle is the account id; known credentials are excluded.
 */
export async function registrationOptions(
  db: PortalTx,
  rp: RelyingParty,
  user: { id: string; userName: string },
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(eq(passkeys.userId, user.id));
  const [{ generateRegistrationOptions }, { isoUint8Array }] = await Promise.all([
    webauthn(),
    webauthnHelpers(),
  ]);
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.userName,
    userID: isoUint8Array.fromUTF8String(user.id),
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

/** The challenge a WebAuthn answer signed (from its client data), or null when unreadable. */
export function challengeOfAnswer(answer: { response: { clientDataJSON: string } }): string | null {
  try {
    const clientData = Buffer.from(answer.response.clientDataJSON, 'base64url').toString('utf8');
    const data = JSON.parse(clientData) as unknown;
    return data &&
      typeof data === 'object' &&
      'challenge' in data &&
      typeof data.challenge === 'string'
      ? data.challenge
      : null;
  } catch {
    return null;
  }
}

/** Verifies a registration answer and stores the passkey; false when the answer does not verify. */
export async function registerPasskey(
  db: PortalTx,
  rp: RelyingParty,
  user: { id: string; companyId: string },
  challenge: string,
  answer: RegistrationResponseJSON,
  name: string,
): Promise<{ id: string } | null> {
  const [{ verifyRegistrationResponse }, { isoBase64URL }] = await Promise.all([
    webauthn(),
    webauthnHelpers(),
  ]);
  const result = await verifyRegistrationResponse({
    response: answer,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return null;
  const { credential } = result.registrationInfo;
  const [row] = await db
    .insert(passkeys)
    .values({
      userId: user.id,
      companyId: user.companyId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name,
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  return row ?? null;
}

/** Options to sign with a passkey: any discoverable one (no user yet), or one of this account's. */
export async function authenticationOptions(
  db: PortalTx,
  rp: RelyingParty,
  userId: string | null,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const allow = userId
    ? await db
        .select({ id: passkeys.credentialId, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.userId, userId))
    : undefined;
  const { generateAuthenticationOptions } = await webauthn();
  return generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: allow,
    userVerification: userId ? 'preferred' : 'required',
  });
}

/**
 * Verifies a signed authentication answer against the stored passkey (of `userId` when given) and
 * moves its counter on. Answers the passkey's account, or null. On its own a passkey must have
 * verified the user (PIN or biometrics): it then stands for both steps.
 */
export async function verifyPasskey(
  db: PortalTx,
  rp: RelyingParty,
  challenge: string,
  answer: AuthenticationResponseJSON,
  userId: string | null,
): Promise<{ userId: string; passkeyId: string } | null> {
  const [stored] = await db
    .select()
    .from(passkeys)
    .where(
      userId
        ? and(eq(passkeys.credentialId, answer.id), eq(passkeys.userId, userId))
        : eq(passkeys.credentialId, answer.id),
    );
  if (!stored) return null;
  // A discoverable answer names its account (the user handle we gave it): it must be the key's.
  const handle = answer.response.userHandle;
  const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await Promise.all([
    webauthn(),
    webauthnHelpers(),
  ]);
  if (handle && isoBase64URL.toUTF8String(handle) !== stored.userId) return null;
  const result = await verifyAuthenticationResponse({
    response: answer,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: rp.id,
    credential: {
      id: stored.credentialId,
      publicKey: isoBase64URL.toBuffer(stored.publicKey),
      counter: stored.counter,
      transports: stored.transports,
    },
    requireUserVerification: userId === null,
  }).catch(() => null);
  if (!result?.verified) return null;
  await db
    .update(passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(passkeys.id, stored.id));
  return { userId: stored.userId, passkeyId: stored.id };
}
