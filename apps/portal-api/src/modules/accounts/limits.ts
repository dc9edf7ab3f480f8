import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';

/**
 * Counters of the sign-in and reset-mail limits, kept by `rate-limiter-flexible`: in this process's
 * memory by default, or in Redis (`REDIS_URL`) so that several portal processes share them.
 */
export type LimiterStore = (options: {
  keyPrefix: string;
  points: number;
  duration: number;
}) => RateLimiterAbstract;

export const memoryStore: LimiterStore = (options) => new RateLimiterMemory(options);

/**
 * Counters in Redis, shared by every portal process. While Redis is unreachable each process counts
 * in its own memory (the library's insurance limiter) rather than failing sign-ins.
 */
export const redisStore =
  (redis: Redis): LimiterStore =>
  (options) =>
    new RateLimiterRedis({
      ...options,
      storeClient: redis,
      keyPrefix: `pa:${options.keyPrefix}`,
      insuranceLimiter: new RateLimiterMemory(options),
    });

/** Seconds until `key` may try again: 0 while under its limit. */
async function waitOf(limiter: RateLimiterAbstract, key: string): Promise<number> {
  const counted = await limiter.get(key);
  if (!counted || counted.consumedPoints < limiter.points) return 0;
  return Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
}

export interface SignInLimitSettings {
  /** Length of every counting window, in seconds. */
  windowSeconds: number;
  /** Failures of one login from one address before that pair waits out the window. */
  perLoginAndAddress: number;
  /** Failures from one address (any logins) before that address waits out the window. */
  perAddress: number;
  /** Failures of one login (any addresses) after which each further try waits 1, 2, 4… s. */
  delayAfter: number;
  /** Failures of one login (any addresses) before it waits out the window: far above a person. */
  loginCeiling: number;
  /** Failures of one known device before it loses its exemption for the window (ADR 007). */
  perDevice: number;
}

/** The longest growing delay of a login, in seconds. */
export const MAX_ACCOUNT_DELAY_SECONDS = 60;

/** What one attempt to prove an account's password is counted by. */
export interface SignInAttempt {
  /**
   * The login as typed, lower-cased, with its kind (`userName:ada`, `email:ada@example.test`). Never
   * the account behind it: a login's answers then depend on its own failures only, so a delayed user
   * name says nothing about which email belongs to the same account (ADR 007).
   */
  login: string;
  /** The client address. */
  address: string;
  /** The device id of a valid sign-in device cookie of this very account, or null. */
  device?: string | null;
}

/**
 * Sign-in limits after OWASP ASVS V2.2 and its account-lockout guidance: the hard limit is per login
 * and address, so a stranger cannot lock the owner out; guesses spread over many addresses meet
 * growing delays and, far above what a person reaches, a ceiling; an address is limited on its
 * failures only, so an office behind one address is not. A client holding a device cookie the account
 * gave it at an earlier sign-in is exempt from all of these and limited by its own counter only, so
 * strangers guessing elsewhere never keep the owner out (ADR 007).
 */
export class SignInLimits {
  private readonly pair: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly login: RateLimiterAbstract;
  private readonly delay: RateLimiterAbstract;
  private readonly device: RateLimiterAbstract;

  constructor(
    private readonly settings: SignInLimitSettings,
    store: LimiterStore = memoryStore,
  ) {
    const duration = settings.windowSeconds;
    this.pair = store({
      keyPrefix: 'sign-in-pair',
      points: settings.perLoginAndAddress,
      duration,
    });
    this.address = store({ keyPrefix: 'sign-in-address', points: settings.perAddress, duration });
    this.login = store({
      keyPrefix: 'sign-in-login',
      points: settings.loginCeiling,
      duration,
    });
    this.delay = store({ keyPrefix: 'sign-in-login-delay', points: 1, duration });
    this.device = store({ keyPrefix: 'sign-in-device', points: settings.perDevice, duration });
  }

  /** Seconds this attempt must wait before its password is even checked; 0 = go ahead. */
  async retryAfter(attempt: SignInAttempt): Promise<number> {
    // A known device under its own limit goes ahead whatever strangers did to the login.
    if (attempt.device && (await waitOf(this.device, attempt.device)) === 0) return 0;
    const waits = await Promise.all([
      waitOf(this.pair, `${attempt.login}|${attempt.address}`),
      waitOf(this.address, attempt.address),
      waitOf(this.login, attempt.login),
      waitOf(this.delay, attempt.login),
    ]);
    return Math.max(...waits);
  }

  /** A wrong password: counted everywhere (a known device's failures count for the login too). */
  async failed(attempt: SignInAttempt): Promise<void> {
    const [, , counted] = await Promise.all([
      this.pair.penalty(`${attempt.login}|${attempt.address}`),
      this.address.penalty(attempt.address),
      this.login.penalty(attempt.login),
      attempt.device ? this.device.penalty(attempt.device) : null,
    ]);
    const beyond = counted.consumedPoints - this.settings.delayAfter;
    if (beyond >= 0) {
      await this.delay.block(attempt.login, Math.min(2 ** beyond, MAX_ACCOUNT_DELAY_SECONDS));
    }
  }

  /** A right password: the pair and the device start afresh (the login's count stays). */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    await Promise.all([
      this.pair.delete(`${attempt.login}|${attempt.address}`),
      attempt.device ? this.device.delete(attempt.device) : null,
    ]);
  }
}

/**
 * Reset mails per email address and per client address. Over either limit nothing is sent, and the
 * answer stays the same, so it tells nothing about the account either.
 */
export class ResetMailLimits {
  private readonly email: RateLimiterAbstract;
  private readonly client: RateLimiterAbstract;

  constructor(
    settings: { perEmail: number; perClient: number; windowSeconds: number },
    store: LimiterStore = memoryStore,
  ) {
    const duration = settings.windowSeconds;
    this.email = store({ keyPrefix: 'reset-mail-email', points: settings.perEmail, duration });
    this.client = store({ keyPrefix: 'reset-mail-client', points: settings.perClient, duration });
  }

  /** Counts one request; true when a mail may go out. */
  async allow(email: string, client: string): Promise<boolean> {
    const [byEmail, byClient] = await Promise.all([
      this.email.penalty(email.toLowerCase()),
      this.client.penalty(client),
    ]);
    return (
      byEmail.consumedPoints <= this.email.points && byClient.consumedPoints <= this.client.points
    );
  }
}
