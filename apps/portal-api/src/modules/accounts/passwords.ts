import fs from 'node:fs';
import path from 'node:path';
import { hash, verify, type Options } from '@node-rs/argon2';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@pa/contracts/accounts';

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane (~40 ms here). */
const ARGON2: Options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string) => hash(password, ARGON2);

/** A hash of a random secret: verifying against it costs what a real check costs. */
let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. With no hash (unknown account) it verifies against a
 * dummy hash anyway, so an unknown user and a wrong password take the same time.
 */
export async function verifyPassword(passwordHash: string | null, password: string) {
  if (!passwordHash) {
    dummyHash ??= hash(`dummy-${Math.random()}-${Date.now()}`, ARGON2);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

let common: Set<string> | undefined;

/** The shipped list of the most common passwords (lower-cased). */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    fs
      .readFileSync(path.join(import.meta.dirname, 'common-passwords.txt'), 'utf8')
      .split('\n')
      .map((line) => line.trim().toLowerCase())
      .filter((line) => line && !line.startsWith('#')),
  );
  return common;
}

/**
 * The password policy (NIST SP 800-63B): 12 to 256 characters, no composition rules, and not one
 * of the most common passwords (case-insensitive). Returns the problem, or null when acceptable.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (commonPasswords().has(password.trim().toLowerCase()))
    return 'This password is too common; choose another one';
  return null;
}
