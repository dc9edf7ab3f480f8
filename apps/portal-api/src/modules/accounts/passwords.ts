import fs from 'node:fs';
import path from 'node:path';
import { hash, verify, type Options } from '@node-rs/argon2';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@pa/contracts/accounts';

/** OWASP's argon2id parameters: 19 MiB, 2 iterations, 1 lane (~40 ms here). */
const OWASP_ARGON2: Options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * Under a test runner (`NODE_ENV=test`, which Vitest sets) argon2id at its cheapest, as Django's and
 * Rails' test settings do for their hashers: the suite hashes and verifies ~800 passwords, ~32 CPU-s
 * of a 2-core run at full cost, and no test but the timing ones depends on the cost. Those set
 * `NODE_ENV=production` for their run. A verification reads the parameters from the stored hash, so
 * a hash of either kind verifies anywhere.
 */
const TEST_ARGON2: Options = { algorithm: 2, memoryCost: 64, timeCost: 1, parallelism: 1 };

/** The parameters new hashes get: OWASP's, except under a test runner. */
const argon2Options = (): Options => (process.env.NODE_ENV === 'test' ? TEST_ARGON2 : OWASP_ARGON2);

export const hashPassword = (password: string) => hash(password, argon2Options());

/** Per parameter set, a hash of a random secret: verifying against it costs what a real check costs. */
const dummyHashes = new Map<Options, Promise<string>>();

/**
 * Checks a password against a stored hash. With no hash (unknown account) it verifies against a
 * dummy hash anyway, so an unknown user and a wrong password take the same time.
 */
export async function verifyPassword(passwordHash: string | null, password: string) {
  if (!passwordHash) {
    const options = argon2Options();
    let dummy = dummyHashes.get(options);
    if (!dummy) {
      dummy = hash(`dummy-${Math.random()}-${Date.now()}`, options);
      dummyHashes.set(options, dummy);
    }
    await verify(await dummy, password).catch(() => false);
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
