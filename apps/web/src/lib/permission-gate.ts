/**
 * What the signed-in user may do, from the permission codes of their session. The server decides
 * every request; this only keeps the screens honest (hide or disable what would be refused).
 */

export type PermissionCode =
  | 'users.read'
  | 'users.create'
  | 'users.update'
  | 'users.delete'
  | 'roles.read'
  | 'roles.create'
  | 'roles.update'
  | 'roles.delete'
  | 'permissions.read'
  | 'permissions.create'
  | 'permissions.update'
  | 'permissions.delete'
  | 'audit.read';

/** The codes of `required` the user does not hold, in the order asked. */
export function missingPermissions(
  held: readonly string[] | null | undefined,
  required: PermissionCode | readonly PermissionCode[],
): PermissionCode[] {
  const have = new Set(held ?? []);
  const wanted: readonly PermissionCode[] = typeof required === 'string' ? [required] : required;
  return wanted.filter((code) => !have.has(code));
}

/**
 * The first code among a role's permissions that the user does not hold, or undefined. A role holding
 * one is beyond them: they may neither give it nor change it (the server refuses both).
 */
export function codeBeyond(
  permissionIds: readonly string[],
  codeOf: (permissionId: string) => string | undefined,
  held: ReadonlySet<string>,
): string | undefined {
  return permissionIds.map(codeOf).find((code) => code && !held.has(code));
}

/** The sentence a disabled control's tooltip shows. */
export function missingPermissionText(missing: readonly string[]): string {
  if (missing.length === 0) return '';
  const list = missing.map((code) => `“${code}”`).join(' and ');
  return `You need the ${list} permission${missing.length > 1 ? 's' : ''} to do this.`;
}
