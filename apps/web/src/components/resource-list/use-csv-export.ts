import { useState } from 'react';
import { toast } from 'sonner';
import type { Paginated } from '@pa/contracts/list-query';
import { errorMessage } from '@/lib/api/api-error';
import { writeCsvPages, type CsvColumn } from '@/lib/csv';

/**
 * "Export CSV" of the current view: every page (100 rows a request), then one download; `progress`
 * says how far it is while it runs.
 */
export function useCsvExport<T>(
  csvColumns: CsvColumn<T>[],
  fetchPage: (page: number) => Promise<Paginated<T>>,
  noun: [string, string],
) {
  const [progress, setProgress] = useState<string | null>(null);
  const exportCsv = async () => {
    setProgress('Starting…');
    const parts: string[] = [];
    try {
      const rows = await writeCsvPages(csvColumns, fetchPage, parts, (page, pages) =>
        setProgress(`Page ${page} of ${Math.max(pages, 1)}`),
      );
      const url = URL.createObjectURL(new Blob(parts, { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${noun[1]}-${new Date().toISOString().slice(0, 10)}.csv`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      toast.success(`Exported ${rows} ${rows === 1 ? noun[0] : noun[1]} to CSV.`);
    } catch (error) {
      toast.error(`The export failed: ${errorMessage(error)}`);
    } finally {
      setProgress(null);
    }
  };
  return { progress, exportCsv };
}
