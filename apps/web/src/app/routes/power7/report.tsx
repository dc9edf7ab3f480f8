import { SessionReport } from '@/features/power7/components/session-report';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <SessionReport />;
}
