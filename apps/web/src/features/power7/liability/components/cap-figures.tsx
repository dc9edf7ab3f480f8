import { formatCount, formatMoney } from '../../lib/format';
import { useCapRunQuery } from '../../api/liability-endpoints';
import { Loaded, TitledSection } from '../../components/sections';
import { capWords } from '../lib/limit-text';
import { Figure, Figures, type LimitQuestion } from './limit-figures';

/** The cap per combination that fits the limit: the first `cap` copies of each are kept. */
export function CapFigures({ session, limit, currency }: LimitQuestion) {
  const run = useCapRunQuery({ session, limit });
  const money = (v: number) => formatMoney(v, currency);
  return (
    <TitledSection title="A cap per combination" titleId="power7-cap-title" testId="power7-cap">
      <Loaded
        query={run}
        current
        fail="The cap could not be worked out"
        loading={['h-16', 'Working out the cap']}
      >
        {(cap) => (
          <>
            <p className="text-sm" aria-live="polite">
              {capWords(cap)}
            </p>
            {cap.cap > 0 ? (
              <Figures>
                <Figure label="Cap (copies)" value={formatCount(cap.cap)} />
                <Figure label="Most copies bought" value={formatCount(cap.maxCopies)} />
                <Figure label="Refused by the cap" value={formatCount(cap.refused)} />
                <Figure
                  label="Worst draw at the cap"
                  value={cap.worstAtCap ? money(cap.worstAtCap.totalPayout) : '—'}
                  note={cap.worstAtCap?.combo}
                />
              </Figures>
            ) : null}
          </>
        )}
      </Loaded>
    </TitledSection>
  );
}
