import { Monitor, Smartphone, Tablet } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { AccountSession } from '@pa/contracts/accounts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api/api-error';
import {
  useEndOtherSignInsMutation,
  useEndSignInMutation,
  useMySignInsQuery,
} from '../api/account-api';
import { describeDevice, type Device } from '../lib/device-name';

/** Sign-ins shown before "Show all": enough for a phone and a couple of computers. */
const COLLAPSED_COUNT = 5;

const dateTime = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const deviceLabel = (device: Device) => `${device.browser} on ${device.system}`;

const KIND_ICON = { desktop: Monitor, mobile: Smartphone, tablet: Tablet, other: Monitor };

/** The signed-in user's live sign-ins, newest first, with "sign out" per device and for all others. */
export function SignInsCard() {
  const { data, error, isLoading, refetch } = useMySignInsQuery();
  const [endOne, { isLoading: endingOne, originalArgs: endingId }] = useEndSignInMutation();
  const [endOthers, { isLoading: endingOthers }] = useEndOtherSignInsMutation();
  const [showAll, setShowAll] = useState(false);

  const signIns = useMemo(
    () =>
      [...(data?.items ?? [])]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
        .map((s) => ({ ...s, device: describeDevice(s.userAgent) })),
    [data],
  );
  const visible = showAll ? signIns : signIns.slice(0, COLLAPSED_COUNT);
  const others = signIns.filter((s) => !s.current).length;

  const signOutDevice = async (signIn: AccountSession & { device: Device }) => {
    try {
      await endOne(signIn._id).unwrap();
      toast.success(`Signed out ${deviceLabel(signIn.device)}.`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };
  const signOutOthers = async () => {
    try {
      const { revoked } = await endOthers().unwrap();
      toast.success(`Signed out ${revoked} other sign-in${revoked === 1 ? '' : 's'}.`);
    } catch (err) {
      toast.error(errorMessage(err));
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">Where you are signed in</CardTitle>
        <CardDescription>
          Every browser signed in to your account, newest first. Sign out any you do not recognise.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isLoading ? <Spinner className="size-6" /> : null}
        {error ? (
          <div className="grid justify-items-start gap-2">
            <FormAlert>{errorMessage(error)}</FormAlert>
            <Button variant="outline" size="sm" onClick={() => void refetch()}>
              Try again
            </Button>
          </div>
        ) : null}
        <ul className="grid gap-2" aria-label="Sign-ins">
          {visible.map((signIn) => {
            const Icon = KIND_ICON[signIn.device.kind];
            const label = deviceLabel(signIn.device);
            return (
              <li
                key={signIn._id}
                className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-md border px-3 py-2 text-sm"
              >
                <Icon className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                <div className="grid min-w-0 flex-1 gap-0.5">
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    {label}
                    {signIn.current ? (
                      <span className="rounded bg-primary px-1.5 py-0.5 text-xs text-primary-foreground">
                        This device
                      </span>
                    ) : null}
                  </span>
                  <span className="text-muted-foreground">
                    {signIn.ip || 'Unknown address'} · signed in {dateTime(signIn.createdAt)} · last
                    used {dateTime(signIn.lastUsedAt)}
                  </span>
                </div>
                {signIn.current ? null : (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={endingOne && endingId === signIn._id}
                    aria-label={`Sign out this device: ${label}, ${signIn.ip}`}
                    onClick={() => void signOutDevice(signIn)}
                  >
                    Sign out this device
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
        <div className="flex flex-wrap gap-2">
          {signIns.length > COLLAPSED_COUNT ? (
            <Button variant="ghost" aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show fewer' : `Show all ${signIns.length} sign-ins`}
            </Button>
          ) : null}
          <Button
            variant="outline"
            disabled={endingOthers || others === 0}
            onClick={() => void signOutOthers()}
          >
            Sign out everywhere else
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
