import { SessionReport } from '@/features/power7/report/components/session-report';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <SessionReport />;
}
