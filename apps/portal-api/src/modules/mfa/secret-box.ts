import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** A TOTP secret as versions before ADR 018 stored it: RFC 4648 base32, upper case. */
const LEGACY = /^[A-Z2-7]+=*$/;

/**
 * Seals short secrets kept in the database (the TOTP secret) with AES-256-GCM under the key of
 * `keys/secrets.key`, kept apart from the database (ADR 018). A sealed value reads
 * `v1:<key id>:<base64 of nonce | ciphertext | tag>`; the key id (16 hex digits of a hash of the key)
 * tells a value sealed under another key — a restore without `keys/` — from a damaged one. The row's
 * owner is bound in as associated data, so a sealed value copied to another row does not open.
 */
export class SecretBox {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('A secrets key is 32 bytes.');
    this.keyId = createHash('sha256')
      .update('power-analyzer secrets key id\0')
      .update(key)
      .digest('hex')
      .slice(0, 16);
  }

  /** What every value this box sealed starts with (for SQL `like`). */
  get prefix(): string {
    return `${VERSION}:${this.keyId}:`;
  }

  /** `plain` sealed for `owner` (e.g. the user id); a new random nonce each time. */
  seal(plain: string, owner: string): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(owner));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return this.prefix + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64');
  }

  /**
   * The secret in a stored value: opened when this box sealed it for `owner`, as it is when it is a
   * legacy plaintext secret, null when it was sealed under another key or does not open (damaged,
   * another owner's).
   */
  open(stored: string, owner: string): string | null {
    if (SecretBox.isLegacy(stored)) return stored;
    if (!stored.startsWith(this.prefix)) return null;
    const raw = Buffer.from(stored.slice(this.prefix.length), 'base64');
    if (raw.length < NONCE_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, NONCE_BYTES));
      decipher.setAAD(Buffer.from(owner));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const body = raw.subarray(NONCE_BYTES, raw.length - TAG_BYTES);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** A value stored before secrets were sealed: the base32 secret itself. */
  static isLegacy(stored: string): boolean {
    return LEGACY.test(stored);
  }
}
