import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '@pa/server-kit/errors';
import { consumeChallenge, liveChallenge, type Challenge } from '../../../modules/mfa/challenges';
import { authOf } from '../../../plugins/app/auth';
import type { SignInGuard } from '../../../modules/sign-in/guard';
import { activeAccount, finishSignIn, type SignInAccount } from '../../../modules/sign-in/steps';
import type { AuthMethod } from '../../../modules/accounts/sign-ins';

const ENROLMENT_EXPIRED = 'This enrolment has expired. Please sign in again.';

/** Who sets up a second step: a signed-in user, or one in the enrolment their company requires. */
export interface SecondStepCaller {
  user: SignInAccount;
  /** The enrolment challenge when the caller came with the enrolment `mfaToken`. */
  enrolment: Challenge | null;
}

/**
 * The caller of a set-up call. With an enrolment `mfaToken` (a password just proven, no tokens yet)
 * that is the account it names; otherwise the call needs a valid access token and, when
 * `currentPassword` is given or required, the right current password (a stolen access token alone
 * must not add a way in).
 */
export async function secondStepCaller(
  app: FastifyInstance,
  guard: SignInGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  proof: { mfaToken?: string | undefined; currentPassword?: string | undefined },
  needsPassword: boolean,
): Promise<SecondStepCaller> {
  if (proof.mfaToken) {
    const enrolment = await liveChallenge(app.db, proof.mfaToken, ['enrol']);
    if (!enrolment?.userId) throw unauthorized(ENROLMENT_EXPIRED);
    return { user: await activeAccount(app, enrolment.userId), enrolment };
  }
  await app.authenticate.call(app, request, reply);
  const auth = authOf(request);
  if (needsPassword) {
    await guard.proveCurrentPassword(
      request,
      reply,
      auth.userId,
      proof.currentPassword ?? '',
      'second step change',
    );
  }
  return { user: await activeAccount(app, auth.userId), enrolment: null };
}

/** Ends a forced enrolment: its token is used up and the sign-in it held back starts. */
export async function finishEnrolment(
  app: FastifyInstance,
  guard: SignInGuard,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: SecondStepCaller,
  amr: AuthMethod[],
) {
  if (!caller.enrolment) return null;
  if (!(await consumeChallenge(app.db, caller.enrolment.id))) throw unauthorized(ENROLMENT_EXPIRED);
  return finishSignIn(app, guard, request, reply, caller.user, caller.enrolment.deviceId, amr);
}
