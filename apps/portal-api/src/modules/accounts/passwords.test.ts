import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword, verifyPassword } from './passwords';

describe('password hashes', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('get OWASP’s argon2id parameters outside a test runner', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    const stored = await hashPassword('a-long-passphrase-1');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'a-long-passphrase-1')).toBe(true);
    expect(await verifyPassword(stored, 'a-long-passphrase-2')).toBe(false);
  });

  it('are argon2id at its cheapest under a test runner; either kind verifies under the other', async () => {
    vi.stubEnv('NODE_ENV', 'test');
    const cheap = await hashPassword('a-long-passphrase-1');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    vi.stubEnv('NODE_ENV', 'production');
    expect(await verifyPassword(cheap, 'a-long-passphrase-1')).toBe(true);
    expect(await verifyPassword(cheap, 'a-long-passphrase-2')).toBe(false);
  });
});
