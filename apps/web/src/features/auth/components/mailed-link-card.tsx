import type { ReactNode } from 'react';
import { PageCard } from '@/components/forms/page-card';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api/api-error';
import { AuthLink, DoneNote } from './public-forms';

/**
 * The page of a link mailed about an email change (confirm it at the new address, undo it at the old
 * one). It asks before it acts, so a mail scanner that opens links changes nothing: `points` say
 * what the button does; once it did, `done` says what happened in their place.
 */
export function MailedLinkCard({
  title,
  description,
  hasToken,
  error,
  points,
  action,
  done,
  link,
}: {
  title: string;
  description: string;
  /** The link carried its token; without it there is nothing to do. */
  hasToken: boolean;
  error: unknown;
  points: ReactNode;
  action: { label: string; busyLabel: string; busy: boolean; onClick: () => Promise<void> };
  done: ReactNode;
  link: { to: string; label: string };
}) {
  return (
    <PageCard title={title} description={description} contentClassName="grid gap-4">
      {!hasToken ? (
        <FormAlert>This link is incomplete. Open the link from the mail again.</FormAlert>
      ) : done ? (
        <DoneNote>{done}</DoneNote>
      ) : (
        <>
          {error ? <FormAlert>{errorMessage(error)}</FormAlert> : null}
          <ul className="grid list-disc gap-1 pl-5 text-sm text-muted-foreground">{points}</ul>
          <Button
            type="button"
            disabled={action.busy}
            className="w-full"
            onClick={() => void action.onClick()}
          >
            {action.busy ? action.busyLabel : action.label}
          </Button>
        </>
      )}
      <AuthLink to={link.to}>{link.label}</AuthLink>
    </PageCard>
  );
}
