import { useMemo } from 'react';
import { useAllPermissionsQuery } from '@/lib/api/company-api';
import { useHeldPermissions } from '@/hooks/use-held-permissions';

/**
 * The company's permissions for a record page or form that offers or names them (a role's, a
 * user's direct ones): asked for only with permissions.read, with each id's code.
 */
export function usePermissionChoices() {
  const held = useHeldPermissions();
  const canRead = held.includes('permissions.read');
  const query = useAllPermissionsQuery(undefined, { skip: !canRead });
  const { data } = query;
  const codeOf = useMemo(() => new Map((data ?? []).map((p) => [p._id, p.code])), [data]);
  return { query, all: data ?? [], codeOf, canRead, held: new Set(held) };
}

export type PermissionChoices = ReturnType<typeof usePermissionChoices>;
