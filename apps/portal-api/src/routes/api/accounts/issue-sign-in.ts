import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ok as envelope } from '@pa/contracts/envelope';
import { unauthorized } from '@pa/server-kit/errors';
import { recordAudit } from '../../../modules/audit/record';
import { clientInfo } from '../../../modules/client-info';
import { startSignIn, type TokenSettings } from '../../../modules/accounts/sessions';
import { loadUserDetails } from '../../../modules/accounts/user-details';
import { setRefreshCookie } from './refresh-cookie';
import type { DeviceAccount, SignInGuard } from './sign-in-guard';

export const INVALID_CREDENTIALS = 'Invalid credentials.';

/** The token settings of every sign-in this portal starts. */
export function tokenSettingsOf(app: FastifyInstance): TokenSettings {
  return {
    keys: app.signingKeys,
    accessTtl: app.config.ACCESS_TOKEN_TTL,
    refreshTtl: app.config.REFRESH_TOKEN_TTL,
    reuseGrace: app.config.REFRESH_REUSE_GRACE,
  };
}

/**
 * Starts a sign-in of an account whose password was just proven (sign-in) or set (an accepted
 * invitation) and answers it: tokens and user details, the refresh cookie and the device cookie.
 * One path, so both answers stay the same.
 */
export async function issueSignIn(
  app: FastifyInstance,
  guard: SignInGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  user: DeviceAccount & { companyId: string; userName: string },
  deviceId: string | null,
) {
  const meta = clientInfo(request);
  const tokens = await startSignIn(app.db, tokenSettingsOf(app), user, meta);
  await recordAudit(app.db, {
    companyId: user.companyId,
    actorId: user.id,
    actorName: user.userName,
    action: 'account.sign-in',
    entityType: 'session',
    entityId: tokens.sessionId,
    ...meta,
  });
  const details = await loadUserDetails(app.db, user.id);
  if (!details) throw unauthorized(INVALID_CREDENTIALS);
  setRefreshCookie(reply, tokens.refreshToken, app.config.REFRESH_TOKEN_TTL);
  await guard.rememberDevice(reply, user, deviceId);
  return envelope(
    { ...details, accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
    'Signed in.',
  );
}
