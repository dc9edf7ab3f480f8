import { Link } from 'react-router';
import type { MfaCoverage, MfaPolicy } from '@pa/contracts/mfa';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { useMfaPolicyCoverageQuery } from '../api/security-api';

const users = (n: number) => (n === 1 ? '1 user' : `${n} users`);

/** The first few names of a group, each linking to the user's page, and how many more there are. */
function Names({ group, label }: { group: MfaCoverage['withSecondStep']; label: string }) {
  if (group.count === 0) return null;
  const more = group.count - group.sample.length;
  return (
    <ul aria-label={label} className="flex flex-wrap gap-x-3 gap-y-1 text-sm">
      {group.sample.map((user) => (
        <li key={user._id}>
          <Link
            to={`/app/company/users/${encodeURIComponent(user._id)}/read`}
            className="text-primary underline-offset-4 hover:underline"
          >
            {user.name}
          </Link>
        </li>
      ))}
      {more > 0 ? <li className="text-muted-foreground">and {more} more</li> : null}
    </ul>
  );
}

/** What saving `policy` would ask of whom, in one sentence for the confirmation. */
export function coverageSentence(policy: MfaPolicy, coverage: MfaCoverage | undefined): string {
  if (policy.requireFor === 'nobody')
    return 'Nobody will be asked for a second step; people who have one keep using it.';
  if (!coverage) return 'It applies from each person’s next sign-in.';
  return coverage.toSetUp.count === 0
    ? `All ${users(coverage.required)} it requires a second step of already have one.`
    : `${users(coverage.toSetUp.count)} without a second step will be asked to set one up at their next sign-in (of ${users(coverage.required)} it requires one of).`;
}

/**
 * Who the policy on the form reaches before it is saved: how many active users already have a
 * second step (and who), and how many it would ask to set one up at their next sign-in (and who).
 */
export function PolicyCoverage({ policy }: { policy: MfaPolicy }) {
  const { data, error, isFetching } = useMfaPolicyCoverageQuery(policy);
  if (error) return <FormAlert>{errorMessage(error)}</FormAlert>;
  if (!data) return null;
  return (
    <section
      aria-label="Who this policy reaches"
      aria-busy={isFetching}
      className="grid gap-3 rounded-md border bg-muted/40 p-4"
    >
      <div className="grid gap-1">
        <p className="text-sm" aria-live="polite">
          <strong>{data.withSecondStep.count}</strong> of {users(data.activeUsers)} already{' '}
          {data.withSecondStep.count === 1 ? 'has' : 'have'} a second step.
        </p>
        <Names group={data.withSecondStep} label="Users with a second step" />
      </div>
      {policy.requireFor === 'nobody' ? null : (
        <div className="grid gap-1">
          <p className="text-sm" aria-live="polite">
            {data.toSetUp.count === 0 ? (
              <>
                Everyone this policy requires a second step of ({users(data.required)}) already has
                one.
              </>
            ) : (
              <>
                <strong>{data.toSetUp.count}</strong> of the {users(data.required)} this policy
                requires it of will be asked to set one up at their next sign-in.
              </>
            )}
          </p>
          <Names group={data.toSetUp} label="Users who will be asked to set one up" />
        </div>
      )}
    </section>
  );
}
