import { Link } from 'react-router';
import type { ExposureAnswer, ExposureItem } from '@pa/contracts/power7';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { drawResultsLink } from '../../components/insight-summary';
import { formatCount, formatMoney, formatPercent } from '../../lib/format';

/**
 * The winners of the combination's own draw, where its tickets win the 7-match payout. Not the draws
 * list: that lists the draws within the budget, and the tail is the draws above it.
 */
export const comboWinnersLink = (session: string, combo: string) =>
  drawResultsLink(session, combo, { 3: 0, 4: 0, 5: 0, 6: 0, 7: 1 });

const NUMBER = 'text-right tabular-nums';

/** The ranking as a table: by combination (linked to its draw) or by customer. */
export function ExposureRows({
  session,
  answer,
  currency,
  canOpen,
}: {
  session: string;
  answer: ExposureAnswer;
  currency?: string;
  /** The user may see winners (the results step needs the download permission). */
  canOpen: boolean;
}) {
  const byCombination = answer.by === 'combination';
  const label = byCombination ? 'Exposure by combination' : 'Exposure by customer';
  return (
    <Table
      scrollLabel={`${label}, scrolls sideways`}
      aria-label={label}
      data-testid="power7-exposure-table"
    >
      <TableHeader>
        <TableRow>
          <TableHead className="text-right">Rank</TableHead>
          {byCombination ? (
            <TableHead>Combination</TableHead>
          ) : (
            <>
              <TableHead>Customer id</TableHead>
              <TableHead>Name</TableHead>
            </>
          )}
          <TableHead className="text-right">Tickets</TableHead>
          {byCombination ? <TableHead className="text-right">Draws won</TableHead> : null}
          <TableHead className="text-right">
            Tail payout{currency ? ` (${currency})` : ''}
          </TableHead>
          <TableHead className="text-right">Share</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {answer.items.map((item, i) => (
          <TableRow key={item.combo ?? item.customerId ?? i} data-testid="power7-exposure-row">
            <TableCell className={NUMBER}>{i + 1}</TableCell>
            {byCombination ? (
              <TableCell>
                {canOpen ? (
                  <ComboLink session={session} item={item} />
                ) : (
                  <span className="font-mono text-xs whitespace-nowrap">{item.combo}</span>
                )}
              </TableCell>
            ) : (
              <>
                <TableCell className="font-mono text-xs">{item.customerId}</TableCell>
                <TableCell>{item.name ?? '—'}</TableCell>
              </>
            )}
            <TableCell className={NUMBER}>{formatCount(item.tickets)}</TableCell>
            {byCombination ? (
              <TableCell className={NUMBER}>{formatCount(item.drawsWon ?? 0)}</TableCell>
            ) : null}
            <TableCell className={`${NUMBER} font-medium`}>
              {formatMoney(item.tailPayout, currency)}
            </TableCell>
            <TableCell className={NUMBER}>{formatPercent(item.share)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function ComboLink({ session, item }: { session: string; item: ExposureItem }) {
  const combo = item.combo ?? '';
  const numbers = combo.split('-');
  return (
    <Link
      to={comboWinnersLink(session, combo)}
      className="text-primary font-mono text-xs whitespace-nowrap underline underline-offset-4"
      aria-label={`Combination ${numbers.join(', ')}: the winners of its own draw`}
    >
      {combo}
    </Link>
  );
}
