import { PageTitle } from '@/components/page-title';
import { PolicyCard } from '@/features/security/components/policy-card';

export const SecurityRoute = () => (
  <>
    <PageTitle title="Two-step sign-in" />
    <PolicyCard />
  </>
);
