import { Link } from 'react-router';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api/api-error';
import {
  useEndOtherSessionsMutation,
  useMyAccountQuery,
  useMySessionsQuery,
} from '../api/account-api';

const dateTime = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—';

export function AccountView() {
  const { data, error, isLoading } = useMyAccountQuery();
  const rows: [string, string | null | undefined][] = [
    ['User name', data?.userName],
    ['First name', data?.userFirstName],
    ['Last name', data?.userLastName],
    ['Email', data?.email],
    ['Phone', data?.phone],
    ['Company', data?.companyName],
    ['Status', data?.status],
    ['Roles', data?.roles.map((r) => r.name).join(', ')],
    ['Last sign-in', data ? dateTime(data.lastSignInAt) : undefined],
  ];
  return (
    <div className="grid max-w-3xl gap-6">
      <Card>
        <CardHeader>
          <CardTitle>My account</CardTitle>
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
      <SessionsCard />
    </div>
  );
}

function SessionsCard() {
  const { data, error } = useMySessionsQuery();
  const [endOthers, { isLoading }] = useEndOtherSessionsMutation();
  const others = data?.items.filter((s) => !s.current).length ?? 0;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Signed-in devices</CardTitle>
        <CardDescription>Every browser where your account is signed in right now.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
        <ul className="grid gap-2">
          {data?.items.map((s) => (
            <li key={s._id} className="grid gap-0.5 rounded-md border px-3 py-2 text-sm">
              <span className="font-medium break-all">
                {s.userAgent || 'Unknown browser'}
                {s.current ? (
                  <span className="ml-2 rounded bg-primary px-1.5 py-0.5 text-xs text-primary-foreground">
                    This device
                  </span>
                ) : null}
              </span>
              <span className="text-muted-foreground">
                {s.ip} · signed in {dateTime(s.createdAt)} · last used {dateTime(s.lastUsedAt)}
              </span>
            </li>
          ))}
        </ul>
        <div>
          <Button
            variant="outline"
            disabled={isLoading || others === 0}
            onClick={async () => {
              try {
                const { revoked } = await endOthers().unwrap();
                toast.success(`${revoked} other sign-in${revoked === 1 ? '' : 's'} ended.`);
              } catch (err) {
                toast.error(errorMessage(err));
              }
            }}
          >
            Sign out other devices
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
