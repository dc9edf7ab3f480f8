import { MailPlus, RotateCw, X } from 'lucide-react';
import { toast } from 'sonner';
import type { Invitation } from '@pa/contracts/invitations';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormAlert } from '@/components/ui/form-field';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
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
  if (!allowed) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Pending invitations</CardTitle>
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
          <Table scrollLabel="Pending invitations" aria-label="Pending invitations">
            <TableHeader>
              <TableRow>
                <TableHead>Email</TableHead>
                <TableHead>Roles</TableHead>
                <TableHead>Invited by</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {data.map((invitation) => (
                <InvitationRow key={invitation._id} invitation={invitation} />
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function InvitationRow({ invitation }: { invitation: Invitation }) {
  const [resend, { isLoading }] = useResendInvitationMutation();
  const name = fullName(invitation);
  const expired = invitation.status === 'expired';
  return (
    <TableRow>
      <TableCell>
        <div className="grid">
          <span className="font-medium break-all">{invitation.email}</span>
          {name ? <span className="text-xs text-muted-foreground">{name}</span> : null}
        </div>
      </TableCell>
      <TableCell>
        <div className="flex flex-wrap gap-1">
          {invitation.roles.length
            ? invitation.roles.map((role) => (
                <Badge key={role._id} variant="outline">
                  {role.name}
                </Badge>
              ))
            : '—'}
        </div>
      </TableCell>
      <TableCell>{invitation.invitedBy.userName}</TableCell>
      <TableCell className="whitespace-nowrap">
        {expired ? (
          <Badge variant="secondary">Expired</Badge>
        ) : (
          formatDateTime(invitation.expiresAt)
        )}
      </TableCell>
      <TableCell>
        <div className="flex justify-end gap-2">
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
      </TableCell>
    </TableRow>
  );
}
