import { useEffect, useSyncExternalStore } from 'react';

/**
 * Names of records shown in the breadcrumb instead of their id segment ("/app/company/users/<uuid>/read"
 * shows the user's name). A page that has loaded a record registers its name while it is mounted.
 */
const labels = new Map<string, string>();
const listeners = new Set<() => void>();
let version = 0;

function emit() {
  version += 1;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The label registered for a path segment (a record id), if any. */
export function breadcrumbLabelFor(segment: string): string | undefined {
  return labels.get(segment);
}

/** Re-renders the caller when a label is registered or removed. */
export function useBreadcrumbLabelsVersion(): number {
  return useSyncExternalStore(
    subscribe,
    () => version,
    () => version,
  );
}

/** Shows `label` for the path segment `segment` while the calling component is mounted. */
export function useBreadcrumbLabel(segment: string | undefined, label: string | undefined): void {
  useEffect(() => {
    if (!segment || !label) return;
    labels.set(segment, label);
    emit();
    return () => {
      if (labels.get(segment) === label) labels.delete(segment);
      emit();
    };
  }, [segment, label]);
}
