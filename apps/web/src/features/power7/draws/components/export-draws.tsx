import { FileDown } from 'lucide-react';
import { XLSX_MAX_ROWS, type FilterBody } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { useDownload } from '../../hooks/use-download';
import { usePower7Access } from '../../hooks/use-power7-access';
import { formatBytes, formatCount } from '../../lib/format';

/**
 * Every draw the list's filters match as one CSV or XLSX (not only the page shown), with the bytes
 * received while it downloads; `matching` is the count the filter answered.
 */
export function ExportDraws({
  body,
  matching,
}: {
  body: FilterBody;
  matching: number | undefined;
}) {
  const { canDownload } = usePower7Access();
  const { download, progress } = useDownload();
  const { page: _page, pageSize: _pageSize, ...request } = body;
  if (!canDownload) return null;
  const rows = progress?.rows ?? matching;
  // one spreadsheet holds at most XLSX_MAX_ROWS rows: the service refuses more, so does the button
  const tooMany = matching !== undefined && matching > XLSX_MAX_ROWS;
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="power7-export">
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          type="button"
          variant="outline"
          disabled={progress !== null || matching === 0 || (format === 'xlsx' && tooMany)}
          onClick={() =>
            void download(
              // a CSV starts with the session's parameters; an XLSX has them on a sheet of their own
              `/api/filter/export/?${format === 'csv' ? 'format=csv&params=1' : 'format=xlsx'}`,
              `power7-draws.${format}`,
              request,
            )
          }
        >
          <FileDown className="size-4" aria-hidden="true" />
          {rows !== undefined
            ? `Export ${formatCount(rows)} draws (${format.toUpperCase()})`
            : `Export draws (${format.toUpperCase()})`}
        </Button>
      ))}
      {tooMany ? (
        <span className="text-muted-foreground text-sm">
          More than {formatCount(XLSX_MAX_ROWS)} draws do not fit one spreadsheet: export the CSV,
          or narrow the filters.
        </span>
      ) : null}
      {progress ? (
        <span role="status" className="text-muted-foreground text-sm tabular-nums">
          Downloading… {formatBytes(progress.bytes)} received
        </span>
      ) : null}
    </div>
  );
}
