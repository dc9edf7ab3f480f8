import { ParametersForm } from '@/features/power7/upload/components/parameters-form';

/** Loaded on demand by the route's `lazy` (see routes.tsx). */
export function Component() {
  return <ParametersForm />;
}
