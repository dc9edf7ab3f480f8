import { and, desc, eq, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import type { Power7Db } from '../../db/client';
import { power7Sessions, type SessionRow } from '../../db/schema';
import type { Owner } from './state';

/** Session metadata in the database; every read is scoped to its owner (user and company). */
export class SessionRepository {
  constructor(private readonly db: Power7Db) {}

  async insert(row: typeof power7Sessions.$inferInsert): Promise<SessionRow> {
    const [inserted] = await this.db.insert(power7Sessions).values(row).returning();
    return inserted!;
  }

  async get(id: string): Promise<SessionRow | null> {
    const [row] = await this.db.select().from(power7Sessions).where(eq(power7Sessions.id, id));
    return row ?? null;
  }

  /** The session when `owner` owns it; another user's or company's session is "not there". */
  async getOwned(id: string, owner: Owner): Promise<SessionRow | null> {
    const [row] = await this.db
      .select()
      .from(power7Sessions)
      .where(
        and(
          eq(power7Sessions.id, id),
          eq(power7Sessions.userId, owner.userId),
          eq(power7Sessions.companyId, owner.companyId),
        ),
      );
    return row ?? null;
  }

  async latest(owner: Owner): Promise<SessionRow | null> {
    const [row] = await this.db
      .select()
      .from(power7Sessions)
      .where(ownedBy(owner))
      .orderBy(desc(power7Sessions.createdAt), desc(power7Sessions.id))
      .limit(1);
    return row ?? null;
  }

  async list(owner: Owner, page: number, pageSize: number) {
    const [items, [count]] = await Promise.all([
      this.db
        .select()
        .from(power7Sessions)
        .where(ownedBy(owner))
        .orderBy(desc(power7Sessions.createdAt), desc(power7Sessions.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db
        .select({ n: sql<number>`count(*)::int` })
        .from(power7Sessions)
        .where(ownedBy(owner)),
    ]);
    return { items, total: count?.n ?? 0 };
  }

  async update(id: string, values: Partial<typeof power7Sessions.$inferInsert>): Promise<void> {
    await this.db
      .update(power7Sessions)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(power7Sessions.id, id));
  }

  async idsOf(owner: Owner): Promise<string[]> {
    const rows = await this.db
      .select({ id: power7Sessions.id })
      .from(power7Sessions)
      .where(ownedBy(owner));
    return rows.map((r) => r.id);
  }

  /** The owner's sessions as the storage quota counts them: folder, job state and reservation. */
  async quotaRows(
    owner: Owner,
  ): Promise<{ id: string; status: SessionRow['status']; reservedBytes: number }[]> {
    return this.db
      .select({
        id: power7Sessions.id,
        status: power7Sessions.status,
        reservedBytes: power7Sessions.reservedBytes,
      })
      .from(power7Sessions)
      .where(ownedBy(owner));
  }

  /**
   * Jobs of a company queued or running, other than `except`, recorded before `before`: how far
   * back a new job of the company goes in the shared queue (its priority, ADR 019).
   */
  async companyJobsAhead(companyId: string, except: string, before: Date): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(power7Sessions)
      .where(
        and(
          eq(power7Sessions.companyId, companyId),
          inArray(power7Sessions.status, ['queued', 'running']),
          ne(power7Sessions.id, except),
          lte(power7Sessions.createdAt, before),
        ),
      );
    return row?.n ?? 0;
  }

  async unfinished(): Promise<SessionRow[]> {
    return this.db
      .select()
      .from(power7Sessions)
      .where(inArray(power7Sessions.status, ['queued', 'running']))
      .orderBy(power7Sessions.createdAt);
  }

  async expired(now: Date): Promise<string[]> {
    const rows = await this.db
      .select({ id: power7Sessions.id })
      .from(power7Sessions)
      .where(lt(power7Sessions.expiresAt, now));
    return rows.map((r) => r.id);
  }

  async delete(ids: string[]): Promise<void> {
    if (ids.length) await this.db.delete(power7Sessions).where(inArray(power7Sessions.id, ids));
  }
}

const ownedBy = (owner: Owner) =>
  and(eq(power7Sessions.userId, owner.userId), eq(power7Sessions.companyId, owner.companyId));
