import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditEntityType } from '@pa/contracts/audit';
import { clientInfo } from '../client-info';
import type { PortalTx } from '../../db/client';
import { sql } from 'drizzle-orm';
import { auditEvents, users } from '../../db/schema';

/** Field names whose values never reach the audit trail. */
const SECRET_KEY = /pass(word)?|hash|token|secret/i;

/** Removes secrets (passwords, hashes, tokens) from a before/after snapshot. */
export function withoutSecrets(
  value: Record<string, unknown> | null | undefined,
): Record<string, unknown> | null {
  if (!value) return null;
  const clean: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_KEY.test(key)) continue;
    clean[key] = field instanceof Date ? field.toISOString() : field;
  }
  return clean;
}

/**
 * Keeps only the fields that changed between two snapshots, so an update's event says what it did.
 * Arrays and objects compare by their JSON.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

/** Who acted and from where; `auditFrom(request)` builds it for a signed-in request. */
export interface AuditActor {
  companyId: string;
  actorId?: string | null;
  actorName?: string;
  ip?: string;
  userAgent?: string;
  /** Set on every event of one request that records several (`inOneRequest`), so they group. */
  requestId?: string;
}

export interface AuditEvent extends AuditActor {
  /** One of `AUDIT_ACTIONS` (`@pa/contracts/audit`): the trail's filter offers exactly those. */
  action: AuditAction;
  entityType: AuditEntityType;
  entityId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/**
 * The actor for a request that records many events (a bulk change, an import): each of them
 * carries one new request id, and the trail shows them as one entry.
 */
export const inOneRequest = (audit: AuditActor): AuditActor => ({
  ...audit,
  requestId: randomUUID(),
});

/** The actor of a request: the signed-in user (when any), their company, address and user agent. */
export function auditFrom(request: FastifyRequest): AuditActor {
  return {
    companyId: request.auth?.companyId ?? '',
    actorId: request.auth?.userId ?? null,
    actorName: request.auth?.userName ?? '',
    ...clientInfo(request),
  };
}

/**
 * Records one audit event. Pass the transaction that made the change so both commit together.
 * Secrets are stripped from before/after whatever the caller passed.
 */
export async function recordAudit(db: PortalTx, event: AuditEvent): Promise<void> {
  await db.insert(auditEvents).values({
    companyId: event.companyId,
    actorId: event.actorId ?? null,
    // Never empty: a caller that names no actor gets the user's current name, or `system`.
    actorName:
      event.actorName ||
      (event.actorId
        ? sql`coalesce((select ${users.userName} from ${users} where ${users.id} = ${event.actorId}), '')`
        : 'system'),
    action: event.action,
    entityType: event.entityType,
    entityId: event.entityId ?? null,
    before: withoutSecrets(event.before),
    after: withoutSecrets(event.after),
    ip: event.ip ?? '',
    userAgent: event.userAgent ?? '',
    requestId: event.requestId ?? null,
  });
}
