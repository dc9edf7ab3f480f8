import { conflict, uniqueViolationOf } from '@pa/server-kit/errors';

/**
 * What each unique index means to a person. The routes check before they write (and answer these
 * 409s themselves); two requests at once can both pass the check, and then the index refuses the
 * second: the same answer, never a 500.
 */
const MESSAGES: Record<string, string> = {
  users_user_name_lower_uq: 'This user name is already taken; choose another one.',
  // Never says why (ADR 020): the account that has it may be another company's.
  users_email_lower_uq: 'This email address cannot be used. Choose another one.',
  roles_company_name_lower_uq: 'Your company already has a role with this name.',
  permissions_company_code_uq: 'Your company already has a permission with this code.',
  companies_name_lower_uq: 'A company with this name already exists.',
};

/** The error handler's `mapError`: a broken unique index of ours becomes its 409 CONFLICT. */
export function uniqueConflict(error: unknown): unknown {
  const index = uniqueViolationOf(error);
  const message = index === null ? undefined : MESSAGES[index];
  return message ? conflict(message) : error;
}
