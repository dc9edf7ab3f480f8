import { Power7Home } from '@/features/power7/sessions/components/power7-home';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <Power7Home />;
}
