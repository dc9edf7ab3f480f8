import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { memoryStore, type LimiterStore } from '../accounts/limits';

/** What one second-step attempt is counted by. */
export interface SecondStepAttempt {
  userId: string;
  /** The challenge (`mfaToken`) it answers. */
  challengeId: string;
  /** The device id of the account's own device cookie presented with the password, or null. */
  deviceId: string | null;
}

/** Seconds until `key` may try again: 0 while under its limit. */
async function waitOf(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const counted = await limiter.get(key);
  if (!counted || counted.consumedPoints < limiter.points) return 0;
  return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
}

/**
 * Wrong second-step codes (ADR 011). Only someone who knows the password gets this far; still, such
 * a stranger must not keep the owner out. So, like the password limits (ADR 007): clients without the
 * account's device cookie share one counter per account, a device the account signed in from before
 * has its own, and every `mfaToken` has one too (so one token never gets more than the limit).
 */
export class SecondStepLimits {
  private readonly token: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly device: RateLimiterAbstract;

  constructor(
    settings: { perWindow: number; windowSeconds: number },
    store: LimiterStore = memoryStore,
  ) {
    const options = { points: settings.perWindow, duration: settings.windowSeconds };
    this.token = store({ keyPrefix: 'mfa-token', ...options });
    this.account = store({ keyPrefix: 'mfa-account', ...options });
    this.device = store({ keyPrefix: 'mfa-device', ...options });
  }

  /** Seconds this attempt must wait before its code is checked; 0 = go ahead. */
  async retryAfter(attempt: SecondStepAttempt): Promise<number> {
    const byToken = await waitOf(this.token, attempt.challengeId);
    if (byToken > 0) return byToken;
    if (attempt.deviceId) return waitOf(this.device, attempt.deviceId);
    return waitOf(this.account, attempt.userId);
  }

  /** A wrong code: counted on its token and on its device, or on the account's shared counter. */
  async failed(attempt: SecondStepAttempt): Promise<void> {
    await Promise.all([
      this.token.penalty(attempt.challengeId),
      attempt.deviceId
        ? this.device.penalty(attempt.deviceId)
        : this.account.penalty(attempt.userId),
    ]);
  }

  /** A right code: the device starts afresh (the strangers' shared count stays). */
  async succeeded(attempt: SecondStepAttempt): Promise<void> {
    if (attempt.deviceId) await this.device.delete(attempt.deviceId);
  }
}
