import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_AUDIENCE, TOKEN_ISSUER, TOKEN_TYPE } from '@pa/contracts/access-token';
import { verifyAccessToken } from './auth';

describe('the caller of a verified access token', () => {
  it('carries how the user signed in (amr), and pwd for tokens signed before there was one', async () => {
    const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'EdDSA' };
    const getKey = createLocalJWKSet({ keys: [jwk] });
    const keys = { getKey, check: async () => true };
    const sign = (claims: Record<string, unknown>) =>
      new SignJWT({ cid: 'company-a', sid: 's1', perms: [], typ: TOKEN_TYPE, ...claims })
        .setProtectedHeader({ alg: 'EdDSA', kid: 'k1' })
        .setSubject('user-a')
        .setIssuer(TOKEN_ISSUER)
        .setAudience(TOKEN_AUDIENCE)
        .setExpirationTime('5m')
        .sign(pair.privateKey);
    expect((await verifyAccessToken(await sign({ amr: ['pwd', 'otp'] }), keys)).amr).toEqual([
      'pwd',
      'otp',
    ]);
    expect((await verifyAccessToken(await sign({ amr: ['hwk'] }), keys)).amr).toEqual(['hwk']);
    expect((await verifyAccessToken(await sign({}), keys)).amr).toEqual(['pwd']);
  });
});
