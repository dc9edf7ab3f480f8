import type { OpenSession } from '@pa/power7-engine/session-store';

interface Entry {
  promise: Promise<OpenSession>;
  bytes: number;
}

/**
 * Rough memory of an open session: 7 B tickets + 8 B masks + 16 B row index per ticket; per
 * qualifying draw ~24 B, ~22 B for its filter index and 4 B for each sort order used (ADR 025; three
 * counted).
 */
export function sessionBytes(session: OpenSession): number {
  return session.ingest.accepted * 31 + session.analysis.qualified * 58;
}

/**
 * Engine tables of finished sessions, kept for fast filters and winners, least recently used evicted
 * once their estimated memory passes the budget (RESULT_CACHE_MB). An evicted session is simply
 * reopened from its folder on the next query.
 */
export class ResultCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly budgetBytes: number) {}

  async get(id: string, open: () => Promise<OpenSession>): Promise<OpenSession> {
    const hit = this.entries.get(id);
    if (hit) {
      this.entries.delete(id);
      this.entries.set(id, hit);
      return hit.promise;
    }
    const entry: Entry = { promise: open(), bytes: 0 };
    this.entries.set(id, entry);
    try {
      const session = await entry.promise;
      entry.bytes = sessionBytes(session);
      this.evict(id);
      return session;
    } catch (error) {
      if (this.entries.get(id) === entry) this.entries.delete(id);
      throw error;
    }
  }

  drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    void entry.promise.then((s) => s.close()).catch(() => {});
  }

  clear(): void {
    for (const id of [...this.entries.keys()]) this.drop(id);
  }

  stats() {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += entry.bytes;
    return { sessions: this.entries.size, bytes, budgetBytes: this.budgetBytes };
  }

  /** Drops least recently used sessions until the total fits; the one just opened always stays. */
  private evict(keep: string): void {
    let total = this.stats().bytes;
    for (const [id, entry] of this.entries) {
      if (total <= this.budgetBytes) break;
      if (id === keep || entry.bytes === 0) continue;
      total -= entry.bytes;
      this.drop(id);
    }
  }
}
