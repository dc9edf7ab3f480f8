import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box';

describe('SecretBox (ADR 018)', () => {
  const box = new SecretBox(randomBytes(32));
  const owner = '01900000-0000-7000-8000-000000000001';
  const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

  it('seals with a new nonce each time, under its key id, and opens for the same owner only', () => {
    const sealed = box.seal(secret, owner);
    expect(sealed).toMatch(new RegExp(`^v1:${box.keyId}:[A-Za-z0-9+/]+=*$`));
    expect(sealed).not.toContain(secret);
    expect(box.seal(secret, owner)).not.toBe(sealed);
    expect(box.open(sealed, owner)).toBe(secret);
    expect(box.open(sealed, '01900000-0000-7000-8000-000000000002')).toBeNull();
  });

  it('reads a legacy plaintext secret as it is, and nothing it cannot trust', () => {
    expect(SecretBox.isLegacy(secret)).toBe(true);
    expect(box.open(secret, owner)).toBe(secret);
    const sealed = box.seal(secret, owner);
    // another key (a restore without keys/): another key id, never opened
    expect(new SecretBox(randomBytes(32)).open(sealed, owner)).toBeNull();
    // damaged: one byte of the ciphertext changed, or cut short
    const raw = Buffer.from(sealed.slice(box.prefix.length), 'base64');
    raw[14] = (raw[14] ?? 0) ^ 1;
    expect(box.open(box.prefix + raw.toString('base64'), owner)).toBeNull();
    expect(box.open(`${box.prefix}AAAA`, owner)).toBeNull();
    expect(box.open('v2:whatever', owner)).toBeNull();
    expect(() => new SecretBox(randomBytes(16))).toThrow('32 bytes');
  });
});
