import { Link } from 'react-router';
import { USER_STATUS_LIST } from '@pa/contracts/users';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api/api-error';
import { useMyAccountQuery } from '../api/account-api';
import { PendingEmailChange } from './pending-email-change';
import { SignInsCard } from './sign-ins-card';

const dateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

/** "Active — can sign in." rather than the stored "active". */
const statusWords = (status: string | undefined) => {
  const item = USER_STATUS_LIST.find((s) => s.value === status);
  return item ? `${item.label} — ${item.description.toLowerCase()}` : status;
};

export function AccountView() {
  const { data, error, isLoading } = useMyAccountQuery();
  const rows: [string, string | null | undefined][] = [
    ['User name', data?.userName],
    ['First name', data?.userFirstName],
    ['Last name', data?.userLastName],
    ['Email', data?.email],
    ['Phone', data?.phone],
    ['Company', data?.companyName],
    ['Status', statusWords(data?.status)],
    ['Roles', data?.roles.map((r) => r.name).join(', ')],
    ['Last sign-in', data ? dateTime(data.lastSignInAt) : undefined],
  ];
  return (
    <div className="grid max-w-3xl gap-6">
      <Card>
        <CardHeader>
          <CardTitle level={1}>My account</CardTitle>
          <CardDescription>Your details in {data?.companyName ?? 'your company'}.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {isLoading ? <Spinner className="size-6" /> : null}
          {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          {data ? (
            <dl className="grid gap-x-4 gap-y-3 sm:grid-cols-[10rem_1fr]">
              {rows.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="text-sm text-muted-foreground">{label}</dt>
                  <dd className="text-sm font-medium break-all">{value || '—'}</dd>
                </div>
              ))}
              <dt className="text-sm text-muted-foreground">Permissions</dt>
              <dd className="flex flex-wrap gap-1">
                {data.permissions.map((p) => (
                  <span key={p} className="rounded-md bg-muted px-2 py-0.5 text-xs">
                    {p}
                  </span>
                ))}
              </dd>
            </dl>
          ) : null}
          {data ? <PendingEmailChange currentEmail={data.email} /> : null}
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <Link to="/app/account/edit">Edit Account</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/app/account/change-password">Change Password</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
      <SignInsCard />
    </div>
  );
}
