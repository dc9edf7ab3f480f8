import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/**
 * The company administration routes under /app/company (users, roles, permissions, audit).
 * Each screen is loaded on demand (route `lazy`), so public pages never pay for it; one chunk per
 * resource, so opening a list also brings its view and edit pages.
 */
type Screens = Record<string, ComponentType>;

const screen =
  <M extends Screens>(load: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await load())[name] });

const users = () => import('./users');
const roles = () => import('./roles');
const permissions = () => import('./permissions');
const audit = () => import('./audit');
const userImport = () => import('./user-import');
const index = () => import('./company-index');

export const companyRoutes: RouteObject[] = [
  { index: true, lazy: screen(index, 'CompanyIndexRoute') },
  { path: 'users', lazy: screen(users, 'UsersListRoute') },
  { path: 'users/create', lazy: screen(users, 'UserCreateRoute') },
  { path: 'users/invite', lazy: screen(users, 'UserInviteRoute') },
  { path: 'users/import', lazy: screen(userImport, 'UserImportRoute') },
  { path: 'users/:id/read', lazy: screen(users, 'UserViewRoute') },
  { path: 'users/:id/update', lazy: screen(users, 'UserEditRoute') },
  { path: 'users/:id/delete', lazy: screen(users, 'UserDeleteRoute') },
  { path: 'roles', lazy: screen(roles, 'RolesListRoute') },
  { path: 'roles/matrix', lazy: screen(roles, 'RoleMatrixRoute') },
  { path: 'roles/create', lazy: screen(roles, 'RoleCreateRoute') },
  { path: 'roles/:id/read', lazy: screen(roles, 'RoleViewRoute') },
  { path: 'roles/:id/update', lazy: screen(roles, 'RoleEditRoute') },
  { path: 'roles/:id/delete', lazy: screen(roles, 'RoleDeleteRoute') },
  { path: 'permissions', lazy: screen(permissions, 'PermissionsListRoute') },
  { path: 'permissions/create', lazy: screen(permissions, 'PermissionCreateRoute') },
  { path: 'permissions/:id/read', lazy: screen(permissions, 'PermissionViewRoute') },
  { path: 'permissions/:id/update', lazy: screen(permissions, 'PermissionEditRoute') },
  { path: 'permissions/:id/delete', lazy: screen(permissions, 'PermissionDeleteRoute') },
  { path: 'audit', lazy: screen(audit, 'AuditRoute') },
];
