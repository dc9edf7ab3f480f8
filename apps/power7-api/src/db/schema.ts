import { bigint, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import type { Power7Session, SessionParams, SessionStatus } from '@pa/contracts/power7';

/** The `counts` column: the counts, and the timings beside them. */
export type StoredCounts = Power7Session['counts'] & {
  timings?: Power7Session['timings'];
  /** Rejected rows by kind of reason (shown at the session's top level). */
  rejectedReasons?: Record<string, number>;
};

/**
 * Session metadata of the Power 7 service. Tables carry the `power7_` prefix so this service can share
 * one PostgreSQL database with the portal without name clashes.
 */
export const power7Sessions = pgTable(
  'power7_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    companyId: text('company_id').notNull(),
    status: text('status').$type<SessionStatus>().notNull(),
    /** queued | reading | building | scanning | writing | done | failed | cancelled */
    phase: text('phase').notNull(),
    progress: real('progress').notNull().default(0),
    /** Upload parameters: budget, payouts, pool. */
    params: jsonb('params').$type<SessionParams>().notNull(),
    originalName: text('original_name'),
    /** The session whose stored tickets this one re-ran (null: an upload); kept when that one goes. */
    sourceSessionId: text('source_session_id'),
    /** The analyst's name and note for the session. */
    name: text('name'),
    note: text('note'),
    fileBytes: integer('file_bytes').notNull().default(0),
    /**
     * Disk the session's folder may take once its job is done (upload, read files and results, an
     * upper bound): counted against its user's STORAGE_QUOTA_MB while the job is queued or running,
     * by every process that shares this database (ADR 019).
     */
    reservedBytes: bigint('reserved_bytes', { mode: 'number' }).notNull().default(0),
    /** Counts known so far: rows read/accepted/rejected, draws evaluated/qualified. */
    counts: jsonb('counts').$type<StoredCounts>().notNull().default({}),
    error: jsonb('error').$type<NonNullable<Power7Session['error']>>(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    finishedAt: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [
    index('power7_sessions_owner_idx').on(t.companyId, t.userId, t.createdAt),
    index('power7_sessions_status_idx').on(t.status),
    index('power7_sessions_expires_idx').on(t.expiresAt),
  ],
);

export type SessionRow = typeof power7Sessions.$inferSelect;

/**
 * Who did what to which Power 7 session: uploads, downloads, clearing. Power 7's own table (in its
 * own PGlite folder by default, beside `power7_sessions` on a shared PostgreSQL): the embedded
 * default gives it no access to the portal's `audit_events`. Never file contents: the action, the
 * session, and small details (file name and size, the draw downloaded, how many were deleted).
 */
export const power7AuditEvents = pgTable(
  'power7_audit_events',
  {
    /** UUIDv7: ordered by time. */
    id: text('id').primaryKey(),
    companyId: text('company_id').notNull(),
    actorId: text('actor_id').notNull(),
    actorName: text('actor_name').notNull().default(''),
    /** power7.upload | power7.rerun | power7.download | power7.export | power7.session.edit | power7.session.delete | power7.sessions.clear */
    action: text('action').notNull(),
    sessionId: text('session_id'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('power7_audit_events_company_idx').on(t.companyId, t.id)],
);
