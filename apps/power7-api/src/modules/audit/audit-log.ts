import { count, desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { z } from 'zod';
import { visibleFileName } from '@pa/contracts/text';
import type { Power7Db } from '../../db/client';
import { power7AuditEvents } from '../../db/schema';
import type { Caller } from '../caller';

/** What Power 7 audits: the file coming in (or run again), results going out, sessions changed or going away. */
type AuditAction =
  | 'power7.upload'
  | 'power7.rerun'
  | 'power7.download'
  | 'power7.export'
  | 'power7.session.edit'
  | 'power7.session.delete'
  | 'power7.sessions.clear';

/** The longest user agent kept (as the portal's audit trail). */
const USER_AGENT_MAX = 512;

export const auditEventSchema = z.object({
  _id: z.string(),
  actorId: z.string(),
  actorName: z.string(),
  action: z.string(),
  sessionId: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
});

/**
 * Power 7's audit trail, in its own database (see `power7AuditEvents`): one record per action, who
 * (user id and name from the token), their company, the session and small details, never file
 * contents. Read back per company by holders of `audit.read`.
 */
export class AuditLog {
  constructor(private readonly db: Power7Db) {}

  async record(
    request: FastifyRequest,
    caller: Caller,
    action: AuditAction,
    sessionId: string | null,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.db.insert(power7AuditEvents).values({
      id: uuidv7(),
      companyId: caller.companyId,
      actorId: caller.userId,
      actorName: caller.name ?? '',
      action,
      sessionId,
      detail: withVisibleName(detail),
      // the socket's address, as the portal records it (never a forgeable header)
      ip: request.ip,
      userAgent: (request.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX),
      createdAt: new Date(),
    });
  }

  /** A page of the company's events, newest first. */
  async list(companyId: string, page: number, pageSize: number) {
    const where = eq(power7AuditEvents.companyId, companyId);
    const [[counted], rows] = await Promise.all([
      this.db.select({ n: count() }).from(power7AuditEvents).where(where),
      this.db
        .select()
        .from(power7AuditEvents)
        .where(where)
        .orderBy(desc(power7AuditEvents.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
    ]);
    return {
      total: counted?.n ?? 0,
      items: rows.map((row) => ({
        _id: row.id,
        actorId: row.actorId,
        actorName: row.actorName,
        action: row.action,
        sessionId: row.sessionId,
        detail: withVisibleName(row.detail),
        ip: row.ip,
        userAgent: row.userAgent,
        createdAt: row.createdAt.toISOString(),
      })),
    };
  }
}

/**
 * A record's details with the file name it names shown without bidi controls or zero-width characters
 * (names are cleaned on upload; a session kept from before may still hold one).
 */
function withVisibleName(detail: Record<string, unknown>): Record<string, unknown> {
  const name = detail.originalName;
  return typeof name === 'string' ? { ...detail, originalName: visibleFileName(name) } : detail;
}
