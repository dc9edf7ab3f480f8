import { useEffect } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage, isApiError } from '@/lib/api/api-error';
import { AuthLink } from './public-forms';

/** What each refusal of an invitation link is called on its page. */
const TITLES = {
  INVITATION_USED: 'Invitation already accepted',
  INVITATION_EXPIRED: 'Invitation expired',
  INVITATION_REVOKED: 'Invitation withdrawn',
  INVITATION_NOT_FOUND: 'Invitation link not valid',
} as const;
type DeadCode = keyof typeof TITLES;

/** The code of an answer refusing an invitation link, or null for any other failure. */
export function deadInvitationCode(error: unknown): DeadCode | null {
  if (!isApiError(error)) return null;
  const { code } = error.data;
  return code in TITLES ? (code as DeadCode) : null;
}

/** The page for a link that no longer works: which refusal, the server's sentence, where to go. */
export function DeadInvitation({ error, onShown }: { error: unknown; onShown: () => void }) {
  const code = deadInvitationCode(error) ?? 'INVITATION_NOT_FOUND';
  // A dead token has nothing more to do in the address bar.
  useEffect(onShown, [onShown]);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{TITLES[code]}</CardTitle>
        <CardDescription>{errorMessage(error)}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-2">
        <AuthLink to={code === 'INVITATION_USED' ? '/auth/signin' : '/'}>
          {code === 'INVITATION_USED' ? 'Go to sign in' : 'Go to the home page'}
        </AuthLink>
      </CardContent>
    </Card>
  );
}
