import { FileDown } from 'lucide-react';
import type { FilterBody } from '@pa/contracts/power7';
import { Button } from '@/components/ui/button';
import { useDownload } from '../hooks/use-download';
import { usePower7Access } from '../hooks/use-power7-access';
import { formatBytes, formatCount } from '../lib/format';

/**
 * Every draw the list's filters match as one CSV (not only the page shown), with the bytes received
 * while it downloads; `matching` is the count the filter answered.
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
      <Button
        type="button"
        variant="outline"
        disabled={progress !== null || matching === 0}
        onClick={() => void download('/api/filter/export/', 'power7-draws.csv', request)}
      >
        <FileDown className="size-4" aria-hidden="true" />
        {rows !== undefined ? `Export ${formatCount(rows)} draws (CSV)` : 'Export draws (CSV)'}
      </Button>
      {progress ? (
        <span role="status" className="text-muted-foreground text-sm tabular-nums">
          Downloading… {formatBytes(progress.bytes)} received
        </span>
      ) : null}
    </div>
  );
}
