import { ChartColumn, TableProperties } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';

/**
 * The tooltip's look in light and dark (recharts draws its own box; the theme's colours apply). Its
 * words are in the popover's text colour: recharts would write each value in its series' colour (a
 * pale bar's colour on the popover fails the contrast minimum).
 */
export const TOOLTIP_PROPS = {
  contentStyle: {
    background: 'var(--popover)',
    color: 'var(--popover-foreground)',
    border: '1px solid var(--border)',
    borderRadius: 8,
  },
  labelStyle: { color: 'var(--popover-foreground)' },
  itemStyle: { color: 'var(--popover-foreground)' },
  // "Draws: 53", not recharts' "Draws : 53"
  separator: ': ',
} as const;

/**
 * A chart with what it says in words: a caption, a one-line summary everyone reads (screen readers
 * included), and a "Show as table" toggle that swaps the drawing for the same numbers as a table.
 * The drawing itself is one tab stop (recharts' keyboard layer: arrows move the tooltip), never one
 * per tick label.
 */
export function ChartFigure({
  title,
  summary,
  chart,
  table,
  testId,
  print = false,
}: {
  title: React.ReactNode;
  summary: React.ReactNode;
  chart: React.ReactNode;
  table: React.ReactNode;
  testId: string;
  /** The printed report: the drawing only, no toggle (a page cannot click). */
  print?: boolean;
}) {
  const [asTable, setAsTable] = useState(false);
  const summaryId = useId();
  return (
    // one minmax(0, 1fr) column: a chart drawn at a wider width must not hold the page open when
    // the window narrows (recharts measures its box, the box must be free to shrink)
    <figure
      className="grid min-w-0 grid-cols-1 gap-2"
      aria-describedby={summaryId}
      data-testid={testId}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <figcaption className="text-sm font-medium">{title}</figcaption>
        {print ? null : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            aria-pressed={asTable}
            onClick={() => setAsTable((t) => !t)}
          >
            {asTable ? (
              <ChartColumn className="size-4" aria-hidden="true" />
            ) : (
              <TableProperties className="size-4" aria-hidden="true" />
            )}
            {asTable ? 'Show as chart' : 'Show as table'}
          </Button>
        )}
      </div>
      <p id={summaryId} className="text-muted-foreground text-sm">
        {summary}
      </p>
      <div className="min-w-0">{asTable && !print ? table : chart}</div>
    </figure>
  );
}
