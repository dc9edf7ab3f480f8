import type { FastifyRequest } from 'fastify';
import type { AuditAction } from '@pa/contracts/audit';
import { notFound } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { auditFrom, recordAudit } from '../audit/record';

/**
 * The one way a route ends sign-ins: 404 unless `target` finds what to end in the caller's reach,
 * 403 when `target.allowed` refuses, then `end` (returns how many were ended), then the audit event (for a single sign-in only when one
 * was actually live).
 */
export async function endSignIns(
  db: PortalDb,
  request: FastifyRequest,
  options: {
    /** `allowed` (after `exists`) throws when the caller may not end these sign-ins. */
    target?: { exists: () => Promise<boolean>; what: string; allowed?: () => Promise<void> };
    end: () => Promise<number>;
    /** Entity type `session` is a sign-in: the stored audit events keep the old word. */
    audit: { action: AuditAction; entityType: 'session' | 'user'; entityId: string };
    after: (revoked: number) => Record<string, unknown>;
    /** false: no audit event when nothing was ended (a sign-in ended twice). */
    auditNone?: boolean;
  },
): Promise<number> {
  if (options.target && !(await options.target.exists())) throw notFound(options.target.what);
  await options.target?.allowed?.();
  const revoked = await options.end();
  if (revoked > 0 || options.auditNone !== false) {
    await recordAudit(db, {
      ...auditFrom(request),
      ...options.audit,
      after: options.after(revoked),
    });
  }
  return revoked;
}
