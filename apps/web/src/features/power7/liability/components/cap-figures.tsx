import { Skeleton } from '@/components/ui/skeleton';
import { LoadError } from '../../components/common';
import { formatCount, formatMoney } from '../../lib/format';
import { useCapRunQuery } from '../../api/liability-endpoints';
import { capWords } from '../lib/limit-text';
import { Figure } from './limit-figures';

/** The cap per combination that fits the limit: the first `cap` copies of each are kept. */
export function CapFigures({
  session,
  limit,
  currency,
}: {
  session: string;
  limit: number;
  currency?: string;
}) {
  const run = useCapRunQuery({ session, limit });
  const money = (v: number) => formatMoney(v, currency);
  let body: React.ReactNode;
  if (run.error) {
    body = (
      <LoadError
        error={run.error}
        onRetry={() => void run.refetch()}
        title="The cap could not be worked out"
      />
    );
  } else if (!run.currentData) {
    body = <Skeleton className="h-16" aria-label="Working out the cap" />;
  } else {
    const cap = run.currentData;
    body = (
      <>
        <p className="text-sm" aria-live="polite">
          {capWords(cap)}
        </p>
        {cap.cap > 0 ? (
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-4 sm:gap-x-6">
            <Figure label="Cap (copies)" value={formatCount(cap.cap)} />
            <Figure label="Most copies bought" value={formatCount(cap.maxCopies)} />
            <Figure label="Refused by the cap" value={formatCount(cap.refused)} />
            <Figure
              label="Worst draw at the cap"
              value={cap.worstAtCap ? money(cap.worstAtCap.totalPayout) : '—'}
              note={cap.worstAtCap?.combo}
            />
          </dl>
        ) : null}
      </>
    );
  }
  return (
    <section className="grid gap-3" aria-labelledby="power7-cap-title" data-testid="power7-cap">
      <h3 id="power7-cap-title" className="text-base font-semibold">
        A cap per combination
      </h3>
      {body}
    </section>
  );
}
