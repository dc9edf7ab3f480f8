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
  /** Failures of one account from one address before that pair waits out the window. */
  perAccountAndAddress: number;
  /** Failures from one address (any accounts) before that address waits out the window. */
  perAddress: number;
  /** Failures of one account (any addresses) after which each further try waits 1, 2, 4… s. */
  delayAfter: number;
  /** Failures of one account (any addresses) before it waits out the window: far above a person. */
  accountCeiling: number;
}

/** The longest growing delay of an account, in seconds. */
export const MAX_ACCOUNT_DELAY_SECONDS = 60;

/**
 * Sign-in limits after OWASP ASVS V2.2: an account is named by its id (user name and email share
 * one counter); the hard limit is per account and address, so a stranger cannot lock the owner out;
 * guesses spread over many addresses meet growing delays and, far above what a person reaches, a
 * ceiling; an address is limited on its failures only, so an office behind one address is not.
 */
export class SignInLimits {
  private readonly pair: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;
  private readonly account: RateLimiterAbstract;
  private readonly delay: RateLimiterAbstract;

  constructor(
    private readonly settings: SignInLimitSettings,
    store: LimiterStore = memoryStore,
  ) {
    const duration = settings.windowSeconds;
    this.pair = store({
      keyPrefix: 'sign-in-pair',
      points: settings.perAccountAndAddress,
      duration,
    });
    this.address = store({ keyPrefix: 'sign-in-address', points: settings.perAddress, duration });
    this.account = store({
      keyPrefix: 'sign-in-account',
      points: settings.accountCeiling,
      duration,
    });
    this.delay = store({ keyPrefix: 'sign-in-delay', points: 1, duration });
  }

  /** Seconds this attempt must wait before its password is even checked; 0 = go ahead. */
  async retryAfter(account: string, address: string): Promise<number> {
    const waits = await Promise.all([
      waitOf(this.pair, `${account}|${address}`),
      waitOf(this.address, address),
      waitOf(this.account, account),
      waitOf(this.delay, account),
    ]);
    return Math.max(...waits);
  }

  async failed(account: string, address: string): Promise<void> {
    const [, , counted] = await Promise.all([
      this.pair.penalty(`${account}|${address}`),
      this.address.penalty(address),
      this.account.penalty(account),
    ]);
    const beyond = counted.consumedPoints - this.settings.delayAfter;
    if (beyond >= 0) {
      await this.delay.block(account, Math.min(2 ** beyond, MAX_ACCOUNT_DELAY_SECONDS));
    }
  }

  /** A right password from this address: the pair starts afresh (the account's count stays). */
  async succeeded(account: string, address: string): Promise<void> {
    await this.pair.delete(`${account}|${address}`);
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
