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
import { formatCount, formatMoney, formatPercent } from '../../lib/format';

/**
 * The draws list of this page filtered to the draws holding every number of the combination (the
 * draws list keeps its filters in the URL, lib/url-state.ts): for a 7-number combination that is
 * its own draw, where its tickets win the 7-match payout, and from there its winners.
 */
export function comboDrawsLink(session: string, combo: string): string {
  const params = new URLSearchParams({ session, inc: combo.split('-').join(',') });
  return `/app/power7/process?${params.toString()}`;
}

const NUMBER = 'text-right tabular-nums';

/** The ranking as a table: by combination (linked to its draw) or by customer. */
export function ExposureRows({
  session,
  answer,
  currency,
}: {
  session: string;
  answer: ExposureAnswer;
  currency?: string;
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
                <ComboLink session={session} item={item} />
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
      to={comboDrawsLink(session, combo)}
      className="text-primary font-mono text-xs whitespace-nowrap underline underline-offset-4"
      aria-label={`Combination ${numbers.join(', ')}: show its draw in the list of draws`}
    >
      {numbers.join(' · ')}
    </Link>
  );
}
