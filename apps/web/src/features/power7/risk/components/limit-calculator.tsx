import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { KindChoice, TitledSection } from '../../components/sections';
import { formatMoney, formatShareOf } from '../../lib/format';
import { useLimitAnswer, type LimitAnswer } from '../hooks/use-limit-answer';
import type { LimitKind } from '../lib/limit-target';
import { chanceWords } from './tail-figures';

const KIND_LABEL: Record<LimitKind, string> = {
  chance: 'A chance of exceeding',
  excess: 'An expected excess',
};

function readOut(answer: LimitAnswer, kind: LimitKind, money: (v: number) => string) {
  switch (answer.state) {
    case 'invalid':
      return 'Correct the target to see its budget.';
    case 'working':
      return 'Working it out…';
    case 'failed':
      return 'The service could not answer; try again in a moment.';
    case 'done': {
      const target =
        kind === 'chance'
          ? `a chance of exceeding of at most ${chanceWords(answer.target)}`
          : `an expected excess of at most ${money(answer.target)} per draw`;
      const above =
        answer.exceeding === 0
          ? 'No draw pays more.'
          : `Draws paying more: ${formatShareOf(answer.exceeding, answer.draws)}.`;
      return `The smallest budget with ${target}: ${money(answer.budget)}. ${above}`;
    }
  }
}

/**
 * "What limit should I set": a chance of exceeding (typed as "1 in N" or a percentage) or an
 * expected excess (an amount) gives the smallest budget that meets it, exactly, with the draws above.
 */
export function LimitCalculator({ session, currency }: { session: string; currency?: string }) {
  const id = useId();
  const [kind, setKind] = useState<LimitKind>('chance');
  const [texts, setTexts] = useState<Record<LimitKind, string>>({
    chance: '1 in 1000',
    excess: '100',
  });
  const answer = useLimitAnswer(session, kind, texts[kind]);
  const money = (v: number) => formatMoney(v, currency);
  return (
    <TitledSection
      title="Limit calculator"
      titleClassName="text-sm font-medium"
      testId="power7-limits"
    >
      <KindChoice
        name={`${id}-kind`}
        legend="What the limit must meet"
        kinds={['chance', 'excess'] as const}
        value={kind}
        onChange={setKind}
        labelOf={(k) => KIND_LABEL[k]}
      />
      <div className="flex flex-wrap items-start gap-3">
        <FormField
          id={`${id}-target`}
          label={
            kind === 'chance'
              ? 'Chance of exceeding (1 in N, or %)'
              : `Expected excess per draw${currency ? ` (${currency})` : ''}`
          }
          inputMode={kind === 'chance' ? 'text' : 'decimal'}
          className="w-64"
          value={texts[kind]}
          error={answer.state === 'invalid' ? answer.error : undefined}
          onChange={(event) => setTexts((t) => ({ ...t, [kind]: event.target.value }))}
        />
      </div>
      <p className="text-sm" aria-live="polite" data-testid="power7-limit">
        {readOut(answer, kind, money)}
      </p>
      {answer.state === 'failed' ? (
        <Button variant="outline" className="w-fit" onClick={answer.retry}>
          Try again
        </Button>
      ) : null}
    </TitledSection>
  );
}
