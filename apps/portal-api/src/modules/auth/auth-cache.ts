import { LRUCache } from 'lru-cache';
import type { DataChanges } from '../../db/changes';

/** `auth`: a sign-in's authorisation state, by sign-in id; `verify`: the verify answer, by user id. */
export type AuthCacheRegion = 'auth' | 'verify';

interface Entry {
  storedAt: number;
  value: unknown;
}

/**
 * In-process cache of what the auth plugin and `verify` read per request (a user's status, company,
 * effective permission codes, sign-in, account details), ADR 004. An entry is used only while no
 * database write of this process happened since it was read (`DataChanges.generation`), so a change of
 * roles, permissions, status, a sign-out or a revocation applies on the very next request. With a
 * PostgreSQL server, where other processes may write, `ttlMs` also bounds an entry's age.
 */
export class AuthCache {
  readonly #regions: Record<AuthCacheRegion, LRUCache<string, Entry>>;
  #generation: number;

  constructor(
    private readonly changes: DataChanges,
    private readonly ttlMs: number | null,
    maxEntries = 10_000,
  ) {
    this.#generation = changes.generation;
    // Bounded per region: the least recently used entry goes first.
    this.#regions = {
      auth: new LRUCache({ max: maxEntries }),
      verify: new LRUCache({ max: maxEntries }),
    };
  }

  /**
   * The cached value of `key` in `region`, or what `load` reads (kept unless a write happened while it
   * read). A hit answers without a promise: this runs on every authenticated request.
   */
  get<T>(region: AuthCacheRegion, key: string, load: () => Promise<T>): T | Promise<T> {
    if (this.ttlMs === 0) return load();
    const generation = this.changes.generation;
    if (generation !== this.#generation) {
      // Something was written: every entry may be stale. Dropping them all keeps this exact and simple.
      this.#regions.auth.clear();
      this.#regions.verify.clear();
      this.#generation = generation;
    }
    const entries = this.#regions[region];
    const now = Date.now();
    const hit = entries.get(key);
    if (hit && (this.ttlMs === null || now - hit.storedAt < this.ttlMs)) return hit.value as T;
    return load().then((value) => {
      if (this.changes.generation === generation) entries.set(key, { storedAt: now, value });
      return value;
    });
  }

  get size() {
    return this.#regions.auth.size + this.#regions.verify.size;
  }
}
/**
 * Verified access tokens until their expiry: a token string's signature, issuer, audience and type do
 * not change, so the EdDSA check need not be repeated for every request carrying it. Bounded; only
 * tokens that verified are kept.
 */
export class VerifiedTokens<C extends { exp: number }> {
  readonly #tokens: LRUCache<string, C>;
  constructor(maxEntries = 10_000) {
    this.#tokens = new LRUCache({ max: maxEntries });
  }

  get(token: string): C | undefined {
    const claims = this.#tokens.get(token);
    if (!claims) return undefined;
    if (claims.exp * 1000 <= Date.now()) {
      this.#tokens.delete(token);
      return undefined;
    }
    return claims;
  }

  set(token: string, claims: C) {
    this.#tokens.set(token, claims);
  }
}
