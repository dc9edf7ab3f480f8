import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { ImportAnswer, ImportColumn, ImportRowResult } from '@pa/contracts/users-bulk';
import { createUserSchema, USER_STATUSES } from '@pa/contracts/users';
import { AppError } from '@pa/server-kit/errors';
import type { PortalDb } from '../../db/client';
import { emailChangeTokens, roles, users } from '../../db/schema';
import { emailRefusal, type EmailUse } from '../accounts/email-change';
import { hashPassword } from '../accounts/passwords';
import { inOneRequest, recordAudit, type AuditActor } from '../audit/record';
import { assertHolds, codesOfRoles, lockCompany, type Actor } from '../roles/guards';
import { readUserCsv, type CsvUserRow } from './import-csv';
import { insertUser, type NewUser } from './users';

const rowSchema = createUserSchema.omit({ password: true, roleIds: true, permissionIds: true });
/** Which CSV column reports a problem of each user field. */
const COLUMN_OF: Record<string, ImportColumn> = {
  email: 'email',
  userName: 'userName',
  userFirstName: 'firstName',
  userLastName: 'lastName',
  phone: 'phone',
  status: 'status',
};

type Checked = { line: number; result: ImportRowResult; user?: Omit<NewUser, 'passwordHash'> };

/** The company's roles by lower-cased name. */
async function rolesByName(db: PortalDb, companyId: string) {
  const rows = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(eq(roles.companyId, companyId));
  return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
}

/**
 * User names (lower-cased) already taken among the file's, and how each of its emails is in use —
 * by an account (of which company) or held for an undo (ADR 020) — across every company.
 */
async function takenNames(db: PortalDb, rows: CsvUserRow[]) {
  const names = rows.map((row) => row.cells.userName.toLowerCase()).filter(Boolean);
  const emails = rows.map((row) => row.cells.email.toLowerCase()).filter(Boolean);
  const [taken, held] = await Promise.all([
    db
      .select({ userName: users.userName, email: users.email, companyId: users.companyId })
      .from(users)
      .where(
        or(
          inArray(sql`lower(${users.userName})`, names.length ? names : ['']),
          inArray(sql`lower(${users.email})`, emails.length ? emails : ['']),
        ),
      ),
    db
      .select({ email: emailChangeTokens.oldEmail })
      .from(emailChangeTokens)
      .where(
        and(
          inArray(emailChangeTokens.oldEmail, emails.length ? emails : ['']),
          isNull(emailChangeTokens.usedAt),
          gt(emailChangeTokens.expiresAt, new Date()),
        ),
      ),
  ]);
  const emailUses = new Map<string, NonNullable<EmailUse>>(
    held.map((row) => [row.email, { by: 'hold' }]),
  );
  for (const row of taken)
    emailUses.set(row.email.toLowerCase(), { by: 'account', companyId: row.companyId });
  return { names: new Set(taken.map((row) => row.userName.toLowerCase())), emails: emailUses };
}

/** A status cell that is none of the statuses, in words (not the validator's list of options). */
const statusProblem = (cell: string) =>
  `"${cell}" is not a status; use ${USER_STATUSES.slice(0, -1).join(', ')} or ${USER_STATUSES.at(-1)}.`;

/**
 * What a report may say of a refusal: a caller who may not read permissions (`permissions.read`)
 * is not told the permission codes a role involves (ADR 020).
 */
function reportable(actor: Actor, error: AppError): string {
  if (actor.permissions.has('permissions.read') || error.code !== ErrorCode.FORBIDDEN)
    return error.message;
  return 'You cannot give these roles because they involve permissions you do not hold yourself.';
}

/**
 * Checks every row as `POST /api/users` would (field rules, unique user name and email, in the
 * database and within the file, roles by name that the caller holds) without writing anything.
 */
async function checkRows(db: PortalDb, actor: Actor, rows: CsvUserRow[]): Promise<Checked[]> {
  const [roleIds, taken] = await Promise.all([
    rolesByName(db, actor.companyId),
    takenNames(db, rows),
  ]);
  // the first line of each user name and email (lower-cased) in the file, to name it on a repeat
  const seen = { names: new Map<string, number>(), emails: new Map<string, number>() };
  const checked: Checked[] = [];
  for (const { line, cells } of rows) {
    const errors: ImportRowResult['errors'] = [];
    const parsed = rowSchema.safeParse({
      email: cells.email,
      userName: cells.userName,
      userFirstName: cells.firstName,
      userLastName: cells.lastName,
      phone: cells.phone,
      status: cells.status ? cells.status.toLowerCase() : undefined,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = COLUMN_OF[String(issue.path[0])] ?? 'row';
        errors.push({
          field,
          message: field === 'status' ? statusProblem(cells.status) : issue.message,
        });
      }
    }
    const name = cells.userName.toLowerCase();
    const email = cells.email.toLowerCase();
    const nameLine = seen.names.get(name);
    if (name && taken.names.has(name))
      errors.push({
        field: 'userName',
        message: `The user name "${cells.userName}" is already taken.`,
      });
    else if (name && nameLine !== undefined)
      errors.push({
        field: 'userName',
        message: `The user name "${cells.userName}" is on line ${nameLine} too.`,
      });
    const use = email ? taken.emails.get(email) : undefined;
    const emailLine = seen.emails.get(email);
    if (use) errors.push({ field: 'email', message: emailRefusal(use, email, actor.companyId) });
    else if (email && emailLine !== undefined)
      errors.push({
        field: 'email',
        message: `The email ${cells.email} is on line ${emailLine} too.`,
      });
    if (!seen.names.has(name)) seen.names.set(name, line);
    if (!seen.emails.has(email)) seen.emails.set(email, line);
    const names = cells.roles
      .split(';')
      .map((n) => n.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !roleIds.has(n.toLowerCase()));
    if (unknown.length)
      errors.push({
        field: 'roles',
        message: `No role named ${unknown.map((n) => `"${n}"`).join(', ')}.`,
      });
    const ids = names.map((n) => roleIds.get(n.toLowerCase())).filter((id) => id !== undefined);
    try {
      assertHolds(actor, await codesOfRoles(db, actor.companyId, ids), 'give these roles');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push({ field: 'roles', message: reportable(actor, error) });
    }
    const result: ImportRowResult = {
      line,
      email: cells.email,
      userName: cells.userName,
      outcome: errors.length ? 'error' : 'create',
      errors,
    };
    const user =
      parsed.success && !errors.length
        ? { ...parsed.data, roleIds: [...new Set(ids)], permissionIds: [] }
        : undefined;
    checked.push({ line, result, ...(user && { user }) });
  }
  return checked;
}

/**
 * The CSV import: a dry run reports each row's outcome and writes nothing; an apply creates every
 * valid row (one transaction each, so a row refused at the last moment does not undo the others)
 * and reports each row. Imported users get an unknown random password: they sign in after a
 * password reset (or an invitation). One `user.import` event sums the apply up, next to each
 * user's own `user.create`.
 */
export async function importUsers(
  db: PortalDb,
  actor: Actor,
  csv: string,
  dryRun: boolean,
  requestAudit: AuditActor,
): Promise<ImportAnswer> {
  // every event of the apply carries one request id: the trail shows the import as one entry
  const audit = inOneRequest(requestAudit);
  const checked = await checkRows(db, actor, readUserCsv(csv));
  const valid = checked.filter((row) => row.user).length;
  if (dryRun || valid === 0) return summary(checked, dryRun);
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  for (const row of checked) {
    if (!row.user) continue;
    const user = row.user;
    try {
      const created = await db.transaction(async (tx) => {
        await lockCompany(tx, actor.companyId);
        return insertUser(tx, actor, { ...user, passwordHash }, audit);
      });
      row.result = { ...row.result, outcome: 'created', userId: created._id };
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      row.result = {
        ...row.result,
        outcome: 'error',
        errors: [{ field: 'row', message: reportable(actor, error) }],
      };
    }
  }
  const answer = summary(checked, false);
  await recordAudit(db, {
    ...audit,
    action: 'user.import',
    entityType: 'user',
    after: { rows: checked.length, created: answer.created, failed: answer.invalid },
  });
  return answer;
}

function summary(checked: Checked[], dryRun: boolean): ImportAnswer {
  const rows = checked.map((row) => row.result);
  const invalid = rows.filter((row) => row.outcome === 'error').length;
  return {
    dryRun,
    rows,
    valid: rows.length - invalid,
    invalid,
    created: rows.filter((row) => row.outcome === 'created').length,
  };
}
