import { MailPlus, RotateCw, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import type { Invitation } from '@pa/contracts/invitations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import { useMissingPermissions } from '@/hooks/use-held-permissions';
import { errorMessage } from '@/lib/api/api-error';
import { formatDateTime, fullName } from '@/lib/format';
import { useListInvitationsQuery, useResendInvitationMutation } from '../../api/invitations-api';
import { RevokeInvitationButton } from './revoke-invitation-button';

/**
 * The users page's open invitations (for those who may invite): who, which roles, who invited,
 * until when; each can be sent again (a new link, the old one dies) or revoked.
 */
export function PendingInvitations() {
  const allowed = useMissingPermissions('users.create').length === 0;
  const { data, error, isLoading } = useListInvitationsQuery(undefined, { skip: !allowed });
  // Arriving from "Send invitation": the heading takes focus once the list (with the new one) shows.
  const invited = (useLocation().state as { invited?: string } | null)?.invited;
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = !!data;
  useEffect(() => {
    if (invited && shown) heading.current?.focus();
  }, [invited, shown]);
  if (!allowed) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={heading} tabIndex={-1} className="outline-none">
          Pending invitations
        </CardTitle>
        <CardDescription>
          Invitations not accepted yet. Resending mails a new link and the previous one stops
          working.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {error ? (
          <FormAlert>{errorMessage(error)}</FormAlert>
        ) : isLoading ? (
          <p role="status" className="text-sm text-muted-foreground">
            Loading invitations…
          </p>
        ) : !data?.length ? (
          <p className="text-sm text-muted-foreground">
            No pending invitations. Use “Invite user” to send one.
          </p>
        ) : (
          <ul aria-label="Pending invitations" className="grid divide-y">
            {data.map((invitation) => (
              <InvitationItem key={invitation._id} invitation={invitation} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** One invitation; its parts wrap onto more lines on a narrow screen instead of scrolling. */
function InvitationItem({ invitation }: { invitation: Invitation }) {
  const [resend, { isLoading }] = useResendInvitationMutation();
  const name = fullName(invitation);
  const expired = invitation.status === 'expired';
  return (
    <li className="flex flex-wrap items-center gap-x-6 gap-y-2 py-3 first:pt-0 last:pb-0">
      <div className="grid min-w-0 flex-1 basis-60 gap-1">
        <span className="font-medium wrap-anywhere">{invitation.email}</span>
        <span className="text-sm text-muted-foreground">
          {name ? `${name} · ` : ''}invited by {invitation.invitedBy.userName} ·{' '}
          {expired ? 'expired' : `until ${formatDateTime(invitation.expiresAt)}`}
        </span>
        <div className="flex flex-wrap items-center gap-1">
          {expired ? <Badge variant="secondary">Expired</Badge> : null}
          {invitation.roles.length ? (
            invitation.roles.map((role) => (
              <Badge key={role._id} variant="outline">
                {role.name}
              </Badge>
            ))
          ) : (
            <span className="text-xs text-muted-foreground">No roles</span>
          )}
        </div>
      </div>
      <div className="flex gap-2">
        <Button
          variant="outline"
          size="sm"
          disabled={isLoading}
          aria-label={`Resend the invitation to ${invitation.email}`}
          onClick={async () => {
            try {
              await resend(invitation._id).unwrap();
              toast.success(`A new link was sent to ${invitation.email}.`);
            } catch (err) {
              toast.error(errorMessage(err));
            }
          }}
        >
          {expired ? <MailPlus aria-hidden="true" /> : <RotateCw aria-hidden="true" />} Resend
        </Button>
        <RevokeInvitationButton invitation={invitation} icon={<X aria-hidden="true" />} />
      </div>
    </li>
  );
}
