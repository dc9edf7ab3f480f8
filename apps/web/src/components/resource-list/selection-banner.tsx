import { Button } from '@/components/ui/button';

/**
 * The "select all N matching" offer of a list whose page rows are all selected, and the state once
 * taken (the ids come from the server, so rows on other pages are included).
 */
export function SelectionBanner({
  pageCount,
  total,
  matching,
  loading,
  noun,
  onSelectMatching,
  onClear,
}: {
  pageCount: number;
  total: number;
  matching: { count: number; truncated: boolean } | null;
  loading: boolean;
  noun: [string, string];
  onSelectMatching: () => void;
  onClear: () => void;
}) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border bg-muted/50 px-3 py-2 text-sm"
    >
      {matching ? (
        <span>
          All {matching.count} matching {noun[1]} are selected
          {matching.truncated
            ? ` (the first ${matching.count} of ${total}: the most one change takes)`
            : ''}
          .
        </span>
      ) : (
        <span>
          All {pageCount} {noun[1]} on this page are selected.
        </span>
      )}
      {matching || total <= pageCount ? null : (
        <Button
          variant="link"
          size="sm"
          className="h-auto p-0"
          disabled={loading}
          onClick={onSelectMatching}
        >
          {loading ? 'Selecting…' : `Select all ${total} matching ${noun[1]}`}
        </Button>
      )}
      <Button variant="link" size="sm" className="h-auto p-0" onClick={onClear}>
        Clear selection
      </Button>
    </div>
  );
}
