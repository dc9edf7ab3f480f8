import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import { ConfigError } from '@pa/server-kit/config';

export interface SigningKeys {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public JWK set served at /api/.well-known/jwks.json and written to keys/jwks.json. */
  jwks: { keys: JWK[] };
}

const PRIVATE_FILE = 'portal-signing-key.json';
const JWKS_FILE = 'jwks.json';

/**
 * Loads the portal's Ed25519 signing key from `${DATA_DIR}/keys`, generating it on first start
 * (private key file mode 0600). Also (re)writes `keys/jwks.json`, the public set the Power 7 API can
 * load with JWKS_FILE.
 */
export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const dir = path.join(dataDir, 'keys');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const privateFile = path.join(dir, PRIVATE_FILE);
  let privateJwk: JWK;
  if (fs.existsSync(privateFile)) {
    privateJwk = JSON.parse(fs.readFileSync(privateFile, 'utf8')) as JWK;
  } else {
    const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
    privateJwk = await exportJWK(pair.privateKey);
    privateJwk.kid = await calculateJwkThumbprint(privateJwk);
    // 'wx': when two processes race on a first start, the loser reads the winner's key.
    try {
      fs.writeFileSync(privateFile, JSON.stringify(privateJwk), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      privateJwk = JSON.parse(fs.readFileSync(privateFile, 'utf8')) as JWK;
    }
  }
  const kid = privateJwk.kid ?? (await calculateJwkThumbprint(privateJwk));
  const { d: _secret, ...publicJwk } = privateJwk;
  const publicEntry: JWK = { ...publicJwk, kid, alg: 'EdDSA', use: 'sig' };
  const jwks = { keys: [publicEntry] };
  const jwksFile = path.join(dir, JWKS_FILE);
  const serialised = JSON.stringify(jwks, null, 2);
  if (!fs.existsSync(jwksFile) || fs.readFileSync(jwksFile, 'utf8') !== serialised) {
    fs.writeFileSync(`${jwksFile}.tmp`, serialised);
    fs.renameSync(`${jwksFile}.tmp`, jwksFile);
  }
  return {
    kid,
    privateKey: (await importJWK({ ...privateJwk, alg: 'EdDSA' }, 'EdDSA')) as CryptoKey,
    publicKey: (await importJWK(publicEntry, 'EdDSA')) as CryptoKey,
    jwks,
  };
}

const SECRETS_FILE = 'secrets.key';

/** The secrets key can be neither read nor made: the start stops with this message, like a bad setting. */
export class SecretsKeyError extends ConfigError {
  constructor(problem: string) {
    super([problem]);
    this.name = 'SecretsKeyError';
  }
}

/**
 * The 32-byte key that seals second-step secrets in the database (ADR 018), from
 * `${DATA_DIR}/keys/secrets.key` (base64, mode 0600), made on first start like the signing key. It is
 * kept beside the signing key and out of the database, so a copy of the database or of a backup
 * without `keys/` does not reveal the secrets.
 */
export function loadSecretsKey(dataDir: string): Buffer {
  const dir = path.join(dataDir, 'keys');
  const file = path.join(dir, SECRETS_FILE);
  const read = () => {
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    if (key.length !== 32)
      throw new SecretsKeyError(
        `${file} must hold 32 bytes in base64 (e.g. \`openssl rand -base64 32\`); it holds ${key.length}.`,
      );
    return key;
  };
  if (fs.existsSync(file)) return read();
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written whole under a name of its own, then linked into place: when two processes race on a
    // first start, the loser's link fails and it reads the winner's complete key.
    const draft = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SecretsKeyError(
      `${file} is missing and cannot be made (${code ?? String(error)}). Portal processes that share keys/ need one key: ` +
        'copy secrets.key from the key set they share, or make it with `openssl rand -base64 32` (docs/operations.md).',
    );
  }
  return read();
}
