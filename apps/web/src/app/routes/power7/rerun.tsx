import { RerunView } from '@/features/power7/scenarios/components/rerun-view';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <RerunView />;
}
