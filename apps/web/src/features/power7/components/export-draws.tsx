import { FileDown } from 'lucide-react';
import type { FilterBody } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { useDownload } from '../hooks/use-download';
import { usePower7Access } from '../hooks/use-power7-access';
import { formatBytes, formatCount } from '../lib/format';

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
  return (
    <div className="flex flex-wrap items-center gap-3" data-testid="power7-export">
      {(['csv', 'xlsx'] as const).map((format) => (
        <Button
          key={format}
          type="button"
          variant="outline"
          disabled={progress !== null || matching === 0}
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
      {progress ? (
        <span role="status" className="text-muted-foreground text-sm tabular-nums">
          Downloading… {formatBytes(progress.bytes)} received
        </span>
      ) : null}
    </div>
  );
}
