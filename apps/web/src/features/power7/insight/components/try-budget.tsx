import { skipToken } from '@reduxjs/toolkit/query';
import { useId, useState } from 'react';
import type { InsightBody } from '@pa/contracts/power7';
import { FormField } from '@/components/ui/form-field';
import { useInsightQuery } from '../../api/power7-endpoints';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { formatMoney } from '../../lib/format';
import { parseTypedAmount, type SessionBand } from '../../lib/insight';
import { KindChoice, TitledSection } from '../../components/sections';
import { excessText, rangeSidesText, shareOfDraws } from '../../components/insight-summary';

type Kind = 'fixed' | 'range';

/** The question for typed amounts, or the message saying what is wrong with them. */
function questionFor(
  session: string,
  kind: Kind,
  minText: string,
  maxText: string,
): { body: InsightBody } | { minError?: string; maxError?: string } {
  const max = parseTypedAmount(maxText, kind === 'fixed' ? 'The budget' : 'The maximum');
  if (kind === 'fixed') {
    return 'value' in max ? { body: { session, budgets: [max.value] } } : { maxError: max.error };
  }
  const min = parseTypedAmount(minText, 'The minimum');
  if (!('value' in min) || !('value' in max)) {
    return {
      ...('error' in min ? { minError: min.error } : {}),
      ...('error' in max ? { maxError: max.error } : {}),
    };
  }
  if (min.value > max.value) {
    return { maxError: 'The maximum must not be less than the minimum.' };
  }
  return {
    body: { session, budgets: [max.value], ranges: [{ min: min.value, max: max.value }] },
  };
}

/**
 * "Try a budget": any fixed budget or range, answered exactly by the service a moment after typing
 * stops, with the chance of paying more and the expected excess.
 */
export function TryBudget({ session, band, currency }: SessionBand) {
  const [kind, setKind] = useState<Kind>(band.min === null ? 'fixed' : 'range');
  const [minText, setMinText] = useState(String(band.min ?? 0));
  const [maxText, setMaxText] = useState(String(band.max));
  const id = useId();
  const typed = questionFor(session, kind, minText, maxText);
  // debounced as text: an object made anew on each render would never settle
  const settled = JSON.parse(useDebouncedValue(JSON.stringify([kind, minText, maxText]))) as [
    Kind,
    string,
    string,
  ];
  const question = questionFor(session, ...settled);
  const query = useInsightQuery('body' in question ? question.body : skipToken);
  const answer = query.currentData;
  const money = (v: number) => formatMoney(v, currency);

  let readOut = 'Working it out…';
  if (!('body' in typed)) readOut = 'Correct the amount to see what it covers.';
  else if (query.isError) readOut = 'The service could not answer; try again in a moment.';
  else if (answer && answer.budgets[0]) {
    const ceiling = answer.budgets[0];
    const range = answer.ranges[0];
    readOut = range
      ? `${shareOfDraws(range.within, answer.draws)} pay between ${money(range.min)} and ${money(range.max)}. ${rangeSidesText(range.below, range.above, answer.draws, range.min, range.max, money)} ${excessText(ceiling, answer.draws, money)}`
      : `A budget of ${money(ceiling.budget)} covers ${shareOfDraws(ceiling.covered, answer.draws)}. ${excessText(ceiling, answer.draws, money)}`;
  }

  return (
    <TitledSection title="Try a budget" titleClassName="text-sm font-medium">
      <KindChoice
        name={`${id}-kind`}
        legend="Kind of budget"
        kinds={['fixed', 'range'] as const}
        value={kind}
        onChange={setKind}
        labelOf={(k) => (k === 'fixed' ? 'At most an amount' : 'Between two amounts')}
      />
      <div className="flex flex-wrap items-start gap-3">
        {kind === 'range' ? (
          <FormField
            id={`${id}-min`}
            label="Minimum"
            inputMode="decimal"
            className="w-44"
            value={minText}
            error={'body' in typed ? undefined : typed.minError}
            onChange={(event) => setMinText(event.target.value)}
          />
        ) : null}
        <FormField
          id={`${id}-max`}
          label={kind === 'fixed' ? 'Budget to try' : 'Maximum'}
          inputMode="decimal"
          className="w-44"
          value={maxText}
          error={'body' in typed ? undefined : typed.maxError}
          onChange={(event) => setMaxText(event.target.value)}
        />
      </div>
      <p className="text-sm" aria-live="polite" data-testid="power7-coverage">
        {readOut}
      </p>
    </TitledSection>
  );
}
