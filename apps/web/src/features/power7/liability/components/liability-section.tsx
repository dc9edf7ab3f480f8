import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { usePower7Access } from '../../hooks/use-power7-access';
import { parseLimit } from '../lib/limit-text';
import { CapFigures } from './cap-figures';
import { LiabilityActions } from './liability-actions';
import { LimitFigures } from './limit-figures';
import { RefusedTable } from './refused-table';

/**
 * The liability limit of a finished session (issue #41): the analyst types the most one draw may
 * pay; the tickets refused in sales order, the worst draw before and after, the head-room, the cap
 * per combination that fits, the refused rows and a new session of the tickets kept.
 */
export function LiabilitySection({ session, currency }: { session: string; currency?: string }) {
  const id = useId();
  const { canRun, canDownload } = usePower7Access();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [limit, setLimit] = useState<number | null>(null);
  if (!canRun) return null;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseLimit(text);
    if ('error' in parsed) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    setLimit(parsed.value);
  };

  return (
    <Card data-testid="power7-liability">
      <CardHeader>
        <CardTitle id={`${id}-title`}>Liability limit</CardTitle>
        <CardDescription>
          The most the book may pay on any one draw. Tickets are taken in the file’s order; a ticket
          is refused when, won, it would take some draw past the limit (equal is allowed).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-6">
        <form
          noValidate
          onSubmit={submit}
          aria-labelledby={`${id}-title`}
          className="flex flex-wrap items-start gap-3"
        >
          <FormField
            id={`${id}-limit`}
            label={`Limit per draw${currency ? ` (${currency})` : ''}`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="1,500,000"
            className="w-full sm:w-64"
            value={text}
            error={error}
            onChange={(event) => {
              setText(event.target.value);
              if (error) setError(undefined);
            }}
          />
          <Button type="submit" className="sm:mt-[1.375rem]">
            Check the limit
          </Button>
        </form>
        {limit === null ? (
          <p className="text-muted-foreground text-sm" data-testid="power7-liability-empty">
            Type a limit and check it to see the tickets it refuses and the cap that fits.
          </p>
        ) : (
          <div className="grid grid-cols-1 gap-6" key={limit}>
            <LimitFigures session={session} limit={limit} currency={currency} />
            <CapFigures session={session} limit={limit} currency={currency} />
            {canDownload ? (
              <RefusedTable session={session} limit={limit} currency={currency} />
            ) : null}
            <LiabilityActions session={session} limit={limit} canDownload={canDownload} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
