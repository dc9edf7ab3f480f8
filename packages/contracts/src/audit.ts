import { z } from 'zod';
import { anyOf } from './list-query';
import { singleLineText } from './text';

/** The company's audit trail (`GET /api/audit-events`, behind `audit.read`). */

/**
 * Every action the portal records, by entity. The portal's `recordAudit` takes only these (a new
 * action must be added here), and the trail's filter offers them all.
 */
export const AUDIT_ACTIONS = [
  'user.create',
  'user.update',
  'user.delete',
  'user.restore',
  'user.import',
  'user.revoke-sessions',
  'user.password-reset-link',
  'user.second-step-reset',
  'role.create',
  'role.update',
  'role.delete',
  'role.restore',
  'permission.create',
  'permission.update',
  'permission.delete',
  'permission.restore',
  'invitation.create',
  'invitation.resend',
  'invitation.revoke',
  'invitation.accept',
  'account.sign-in',
  'account.sign-in-failed',
  'account.second-step-failed',
  'account.recovery-code-used',
  'account.sign-out',
  'account.update',
  'account.password-change',
  'account.password-reset',
  'account.password-check-failed',
  'account.email-change-undone',
  'account.mfa-enrolled',
  'account.mfa-disabled',
  'account.recovery-codes-renewed',
  'account.passkey-added',
  'account.passkey-renamed',
  'account.passkey-removed',
  'session.revoke',
  'session.revoke-others',
  'company.create',
  'company.mfa-policy-change',
  'access.denied',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The kinds of record an audit event is about. */
export const AUDIT_ENTITY_TYPES = [
  'user',
  'role',
  'permission',
  'invitation',
  'passkey',
  'session',
  'company',
  'route',
] as const;
export type AuditEntityType = (typeof AUDIT_ENTITY_TYPES)[number];

export const AUDIT_SORT_FIELDS = ['_id', 'createdAt', 'action', 'entityType', 'actorName'] as const;

// Years PostgreSQL and Date both hold as written (year 0000, or 9999-12-31 plus a day or an offset,
// would fail in the query, a 500); the trail starts long after the lower bound anyway.
const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(9999, 11, 31);
const isoDate = z.iso
  .datetime({ offset: true, message: 'must be an ISO date-time' })
  .or(z.iso.date())
  .refine(
    (text) => {
      const time = new Date(text).getTime();
      return time >= EARLIEST && time < LATEST;
    },
    { message: 'must be a date between 1900-01-01 and 9999-12-30' },
  );

/** `filters[...]` of the trail; action, entityType and actorId take several values joined by commas. */
export const auditFiltersSchema = z.strictObject({
  action: anyOf(singleLineText().trim().max(100), 'an action').optional(),
  entityType: anyOf(singleLineText().trim().max(100), 'an entity type').optional(),
  entityId: singleLineText().trim().max(100).optional(),
  actorId: anyOf(z.uuid(), 'a user id').optional(),
  /** Events at or after this instant (a date means its start, UTC). */
  from: isoDate.optional(),
  /** Events before this instant (a date means the end of that day, UTC). */
  to: isoDate.optional(),
  /** The events one request recorded (an event's `requestId`). */
  requestId: z.uuid().optional(),
  /**
   * `request`: one entry per request — the events one request recorded (a bulk change of 45 users,
   * an import) show as their first, with `requestEvents` saying how many there are.
   */
  group: z.literal('request').optional(),
});

export const auditEventSchema = z.object({
  _id: z.string(),
  actorId: z.string().nullable(),
  actorName: z.string(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  /** The entity's current name (or the one its snapshot kept after a delete); null when unknown. */
  entityName: z.string().nullable(),
  /**
   * Names of the role, permission and invitation ids in before/after (ids of deleted records are
   * absent).
   */
  names: z.record(z.string(), z.string()),
  /** Shared by every event one request recorded when it recorded several; null otherwise. */
  requestId: z.string().nullable(),
  /**
   * How many events this entry stands for: 1, or with `filters[group]=request` the number of events
   * its request recorded that match the other filters.
   */
  requestEvents: z.number().int(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;
