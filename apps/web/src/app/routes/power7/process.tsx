import { ProcessView } from '@/features/power7/sessions/components/process-view';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <ProcessView />;
}
