import { createHash } from 'node:crypto';

/**
 * How an ended sign-in is published in the portal's public list (`/api/.well-known/revoked-sessions`):
 * the SHA-256 of its id (the token's `sid`), hex. Sign-in ids are UUIDv7, whose first 48 bits are
 * the time of the sign-in; the hash hides it (and its 74 random bits make it impossible to undo),
 * while a service holding a token computes the same key from its `sid`, with no secret to share.
 */
export function endedSignInKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}
