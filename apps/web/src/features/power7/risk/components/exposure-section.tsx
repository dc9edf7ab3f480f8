import { skipToken } from '@reduxjs/toolkit/query';
import { Download } from 'lucide-react';
import { useId, useState } from 'react';
import type { ExposureBy } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Skeleton } from '@/components/ui/skeleton';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { errorMessage } from '@/lib/api/api-error';
import { useExposureQuery } from '../../api/power7-endpoints';
import { LoadError, httpStatusOf } from '../../components/common';
import { useDownload } from '../../hooks/use-download';
import { usePower7Access } from '../../hooks/use-power7-access';
import { shareOfDraws } from '../../components/insight-summary';
import { formatCount, formatMoney } from '../../lib/format';
import { parseTypedAmount, type BudgetBand } from '../../lib/insight';
import { KindChoice, TitledSection } from '../../components/sections';
import { ExposureRows } from './exposure-rows';

/** Rows on screen: a top list read at a glance; the CSV holds the whole ranking. */
export const EXPOSURE_ROWS = 20;

const BY_LABEL: Record<ExposureBy, string> = {
  combination: 'By combination',
  customer: 'By customer',
};

/**
 * The whole ranking (not only the rows shown), as the service writes it: a CSV that starts with the
 * session's parameters, or an XLSX with typed cells.
 */
export const exposureFilePath = (
  session: string,
  over: number,
  by: ExposureBy,
  format: 'csv' | 'xlsx',
) =>
  `/api/power7/sessions/${encodeURIComponent(session)}/exposure.csv?${new URLSearchParams({
    over: String(over),
    by,
    format,
    ...(format === 'csv' ? { params: '1' } : {}),
  }).toString()}`;

/**
 * Where the tail comes from: the draws paying more than a line (the session's budget, or a range's
 * maximum, unless typed otherwise), and the combinations or customers whose payouts make them up,
 * largest first, with a CSV of the full ranking.
 */
export function ExposureSection({
  session,
  band,
  draws,
  currency,
}: {
  session: string;
  band: BudgetBand;
  /** All draws of the session, for the share of draws over the line. */
  draws: number;
  currency?: string;
}) {
  const id = useId();
  const { canDownload } = usePower7Access();
  const { download, progress } = useDownload();
  const [by, setBy] = useState<ExposureBy>('combination');
  const [overText, setOverText] = useState(String(band.max));
  const typed = parseTypedAmount(overText, 'The line');
  const settled = parseTypedAmount(useDebouncedValue(overText), 'The line');
  const over = 'value' in settled ? settled.value : null;
  const query = useExposureQuery(
    over !== null ? { session, over, by, limit: EXPOSURE_ROWS } : skipToken,
  );
  const money = (v: number) => formatMoney(v, currency);
  // nothing to download where the ranking itself is refused (no customer ids) or not served
  const refused = [404, 409].includes(Number(httpStatusOf(query.error)));

  return (
    <TitledSection
      title="Where the tail comes from"
      titleClassName="text-sm font-medium"
      testId="power7-exposure"
    >
      <p className="text-muted-foreground text-sm">
        The draws paying more than the line, and what each combination or customer is paid in them.
      </p>
      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <KindChoice
          name={`${id}-by`}
          legend="Rank the exposure"
          kinds={['combination', 'customer'] as const}
          value={by}
          onChange={setBy}
          labelOf={(k) => BY_LABEL[k]}
          className="pb-2"
        />
        <FormField
          id={`${id}-over`}
          label={`Over the line${currency ? ` (${currency})` : ''}`}
          inputMode="decimal"
          className="w-44"
          value={overText}
          error={'error' in typed ? typed.error : undefined}
          onChange={(event) => setOverText(event.target.value)}
        />
        {canDownload
          ? (['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                variant="outline"
                disabled={over === null || progress !== null || 'error' in typed || refused}
                onClick={() =>
                  over !== null &&
                  void download(
                    exposureFilePath(session, over, by, format),
                    `power7-${session}-exposure-${by}.${format}`,
                  )
                }
              >
                <Download className="size-4" aria-hidden="true" />{' '}
                {`Download ${format.toUpperCase()}`}
              </Button>
            ))
          : null}
      </div>
      <ExposureBody
        session={session}
        query={query}
        asked={over !== null && 'value' in typed}
        draws={draws}
        money={money}
        currency={currency}
        canOpen={canDownload}
      />
    </TitledSection>
  );
}

function ExposureBody({
  session,
  query,
  asked,
  draws,
  money,
  currency,
  canOpen,
}: {
  session: string;
  canOpen: boolean;
  query: ReturnType<typeof useExposureQuery>;
  asked: boolean;
  draws: number;
  money: (v: number) => string;
  currency?: string;
}) {
  const status = httpStatusOf(query.error);
  if (!asked) return <p className="text-muted-foreground text-sm">Correct the line to rank.</p>;
  if (status === 404) {
    return (
      <p role="status" className="text-sm" data-testid="power7-exposure-unavailable">
        The exposure ranking is not available from this Power 7 service yet; the figures above do
        not need it.
      </p>
    );
  }
  if (status === 409) {
    return (
      <p role="status" className="text-sm" data-testid="power7-exposure-refused">
        {errorMessage(query.error)}
      </p>
    );
  }
  if (query.error) {
    return (
      <LoadError
        error={query.error}
        onRetry={() => void query.refetch()}
        title="The exposure ranking could not be loaded"
      />
    );
  }
  const answer = query.currentData;
  if (!answer) return <Skeleton className="h-48" aria-label="Loading the exposure ranking" />;
  if (answer.draws === 0) {
    return (
      <p role="status" className="text-sm" data-testid="power7-exposure-empty">
        No draw pays more than {money(answer.over)}: there is no tail to rank. Lower the line to see
        where the largest draws come from.
      </p>
    );
  }
  const what = answer.by === 'combination' ? 'combinations' : 'customers';
  return (
    <div className="grid gap-2">
      <p className="text-sm" data-testid="power7-exposure-summary">
        {shareOfDraws(answer.draws, draws)} pay more than {money(answer.over)},{' '}
        {money(answer.tailTotal)} in all. {formatCount(answer.ranked)} {what} are paid in them
        {answer.items.length < answer.ranked
          ? `; the ${formatCount(answer.items.length)} largest are shown, the CSV holds all.`
          : '.'}
      </p>
      {answer.by === 'combination' && canOpen ? (
        <p className="text-muted-foreground text-xs">
          Each combination links to the winners of its own draw, where its tickets win the 7-match
          payout.
        </p>
      ) : null}
      <ExposureRows session={session} answer={answer} currency={currency} canOpen={canOpen} />
    </div>
  );
}
