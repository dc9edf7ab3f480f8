import { ShieldAlert, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DANGER_BUTTON } from '@/lib/danger-button';

/**
 * A delete page: what goes and what follows, then confirm. A protected record says why it cannot go
 * and links to what must change first, instead of offering a button that would be refused.
 */
export function DeleteConfirm({
  title,
  what,
  block,
  cancelTo,
  onConfirm,
}: {
  title: string;
  what: string[];
  block: { reason: string; fix?: { to: string; text: string } } | null;
  cancelTo: string;
  onConfirm: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Card className="max-w-2xl">
      <PageTitle title={title} />
      <CardHeader>
        <CardTitle level={1}>{title}</CardTitle>
        <CardDescription>
          {block ? 'This cannot be deleted now.' : 'Please check before you confirm.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ul className="grid list-disc gap-1 pl-5 text-sm">
          {what.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        {block ? (
          <div
            role="alert"
            className="flex gap-3 rounded-md border border-amber-500/50 bg-amber-500/10 p-3 text-sm"
          >
            <ShieldAlert
              aria-hidden="true"
              className="size-5 shrink-0 text-amber-700 dark:text-amber-300"
            />
            <div className="grid gap-1">
              <p>{block.reason}</p>
              {block.fix ? (
                <Link to={block.fix.to} className="font-medium underline underline-offset-4">
                  {block.fix.text}
                </Link>
              ) : null}
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {block ? null : (
            <Button
              className={DANGER_BUTTON}
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                await onConfirm();
                setBusy(false);
              }}
            >
              <Trash2 aria-hidden="true" /> {busy ? 'Deleting…' : 'Delete'}
            </Button>
          )}
          <Button asChild variant="outline">
            <Link to={cancelTo}>{block ? 'Back' : 'Cancel'}</Link>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
