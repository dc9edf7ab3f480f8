import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';
import { usePaletteRolesQuery, usePaletteUsersQuery } from './palette-api';
import { pageItems, type PaletteGroup } from './palette-items';

/** Waits this long after the last key before searching records (one request per pause, not per key). */
const SEARCH_DELAY_MS = 200;

function useSettled(value: string): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

const userName = (user: { userFirstName: string; userLastName: string; userName: string }) =>
  `${user.userFirstName} ${user.userLastName}`.trim() || user.userName;

/**
 * The palette's groups for a query: pages the user may open, then users and roles found by the
 * server's search (only for those who may read them, and only once something is typed).
 */
export function usePaletteResults(query: string): { groups: PaletteGroup[]; searching: boolean } {
  const permissions = useSelector(selectUserDetails)?.permissions;
  const search = useSettled(query.trim());
  const canUsers = permissions?.includes('users.read') ?? false;
  const canRoles = permissions?.includes('roles.read') ?? false;
  const users = usePaletteUsersQuery(search && canUsers ? search : skipToken);
  const roles = usePaletteRolesQuery(search && canRoles ? search : skipToken);
  const groups: PaletteGroup[] = [
    { id: 'pages', heading: 'Pages', items: pageItems(query, permissions) },
    {
      id: 'users',
      heading: 'Users',
      items: (search ? (users.data?.items ?? []) : []).map((user) => ({
        id: `user:${user._id}`,
        label: userName(user),
        hint: `${user.userName} · ${user.email}`,
        url: `/app/company/users/${user._id}/read`,
      })),
    },
    {
      id: 'roles',
      heading: 'Roles',
      items: (search ? (roles.data?.items ?? []) : []).map((role) => ({
        id: `role:${role._id}`,
        label: role.name,
        hint: role.description || 'Role',
        url: `/app/company/roles/${role._id}/read`,
      })),
    },
  ];
  return {
    groups: groups.filter((group) => group.items.length > 0),
    searching: query.trim() !== search || users.isFetching || roles.isFetching,
  };
}
