import type * as React from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { ZodType } from 'zod';
import type { PermissionCode } from '@/lib/permission-gate';
import type { ChoiceList } from './form-choices';

export interface Versioned {
  _id: string;
  version: number;
}

/** An RTK Query mutation trigger, as far as a record form needs it. */
type Trigger<A, R> = (arg: A) => { unwrap: () => Promise<R> };

/**
 * What one record type's create and edit form says and does; `C` is what its fields derive from the
 * lists they offer (names of roles, codes of permissions), also used to word a stale-edit conflict.
 */
export interface RecordFormDefinition<T extends Versioned, V extends FieldValues, C = undefined> {
  /** The form's rules (the create and edit forms of a user differ: the password). */
  schema: (record: T | undefined) => ZodType<V, V>;
  empty: V;
  toValues: (record: T) => V;
  /** The field names a stale-edit conflict compares, with their labels. */
  labels: Record<string, string>;
  description: (record: T | undefined) => React.ReactNode;
  className: string;
  useCreate: () => readonly [Trigger<V, T>, ...unknown[]];
  useUpdate: () => readonly [
    Trigger<{ id: string; body: Record<string, unknown> & { version: number } }, T>,
    ...unknown[],
  ];
  /** The record's RTK Query endpoint, read afresh when a save meets a newer version. */
  endpoint: {
    initiate: (id: string, options: { forceRefetch: boolean; subscribe: boolean }) => unknown;
  };
  /** The form field a 409 message is about ("user name taken" → userName). */
  conflictField?: (message: string) => Path<V> | undefined;
  /** The lists the form offers to choose from: the form waits for them. */
  useChoices?: () => { lists: readonly ChoiceList[]; what: string; context: C };
  format?: (context: C) => (field: string, value: unknown) => string;
  Fields: (props: FieldsProps<T, V, C>) => React.ReactNode;
}

export interface FieldsProps<T, V extends FieldValues, C> {
  form: UseFormReturn<V, unknown, V>;
  record: T | undefined;
  /** The version being edited (moves on when "Reload their version" is chosen). */
  base: T | undefined;
  context: C;
}

/** The four permissions of a record type: `users` → users.read, users.create, … */
type NeedsOf<P extends string> = {
  [verb in 'read' | 'create' | 'update' | 'delete']: `${P}.${verb}` & PermissionCode;
};

export const needsOf = <P extends 'users' | 'roles' | 'permissions'>(prefix: P) =>
  ({
    read: `${prefix}.read`,
    create: `${prefix}.create`,
    update: `${prefix}.update`,
    delete: `${prefix}.delete`,
  }) as NeedsOf<P>;

/** What the record pages of one resource (users, roles, permissions) share. */
export interface RecordResource<T> {
  noun: string;
  plural: string;
  listPath: string;
  need: {
    read: PermissionCode;
    create: PermissionCode;
    update: PermissionCode;
    delete: PermissionCode;
  };
  /** The record query of `id` (an RTK Query hook). */
  useQuery: (id: string) => {
    data?: T;
    error?: unknown;
    isLoading: boolean;
    refetch: () => unknown;
  };
  /** The record's name, for the breadcrumb and the messages. */
  nameOf: (record: T) => string;
}

export const viewPathOf = (resource: { listPath: string }, id: string) =>
  `${resource.listPath}/${id}/read`;

/** An RTK Query mutation hook taking a record's id (delete, restore). */
export type IdMutation = () => readonly [
  (id: string) => { unwrap: () => Promise<unknown> },
  ...unknown[],
];

/** What a delete page says: what goes and, for a protected record, why it cannot. */
export interface DeleteWording {
  /** What goes and what follows; the last line gets whether the delete can be undone. */
  what: string[];
  block: { reason: string; fix?: { to: string; text: string } } | null;
}

/**
 * One record type of the company administration: its pages (view aside, which each type lays out
 * with `RecordDetails`), its form and its delete — everything `record-scaffold` needs.
 */
export interface RecordDefinition<
  T extends Versioned,
  V extends FieldValues,
  C = undefined,
> extends RecordResource<T> {
  form: RecordFormDefinition<T, V, C>;
  useRemove: IdMutation;
  useRestore: IdMutation;
  /** Who may undo a delete besides holding the delete permission (null: no more is needed). */
  restoreNeed: PermissionCode | null;
  /** The delete page's wording of a record (a hook: it may read who is signed in). */
  useDeleteWording: () => (record: T) => DeleteWording;
}
