import { FileSpreadsheet } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ScrollRegion } from '@/components/ui/table';
import { cn } from '@/lib/utils';
import { previewFile, type FilePreview } from '../../lib/csv-preview';
import { formatBytes } from '../../lib/format';

/** The chosen customer file, its preview, and what is wrong with it (unreadable, no number columns). */
export function useChosenFile() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<FilePreview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const choose = async (chosen: File | undefined) => {
    setFileError(null);
    setFile(chosen ?? null);
    setPreview(null);
    if (!chosen) return;
    const result = await previewFile(chosen);
    setPreview(result);
    if (result.kind === 'unreadable') setFileError(result.reason);
    else if (result.kind === 'csv' && !result.columns) {
      setFileError(
        'No number columns found in the header: expected n1..n7 or number1..number7, or one column named numbers, combination or ticket.',
      );
    }
  };
  return { file, preview, fileError, setFileError, choose };
}

/** The customer file's card: the drop zone, then a preview of a CSV's first rows. */
export function CustomerFileCard({
  chosen: { file, preview, choose },
  error,
  disabled,
}: {
  chosen: ReturnType<typeof useChosenFile>;
  error: string | null;
  disabled: boolean;
}) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Customer file</CardTitle>
        <CardDescription>
          CSV or XLSX; one ticket of seven numbers per row, in columns n1..n7 (or one column named
          numbers), with optional customer id, name and phone columns.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FileDrop file={file} onFile={(f) => void choose(f)} error={error} disabled={disabled} />
        {file && preview?.kind === 'csv' ? <CsvPreviewTable preview={preview} /> : null}
        {file && preview?.kind === 'xlsx' ? (
          <p className="text-muted-foreground text-sm">
            An Excel workbook: its first sheet is read on the server (no preview here).
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function FileDrop({
  file,
  onFile,
  error,
  disabled,
}: {
  file: File | null;
  onFile: (file: File | undefined) => void;
  error: string | null;
  disabled: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div className="grid gap-2">
      <div
        data-testid="power7-dropzone"
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          if (!disabled) onFile(event.dataTransfer.files[0]);
        }}
        className={cn(
          'flex flex-col items-center justify-center gap-3 rounded-lg border-2 border-dashed p-6 text-center transition-colors',
          over ? 'border-primary bg-primary/5' : 'border-border',
          error ? 'border-destructive' : '',
        )}
      >
        <FileSpreadsheet className="text-muted-foreground size-8" aria-hidden="true" />
        {file ? (
          <p className="text-sm">
            <span className="font-medium break-all">{file.name}</span>{' '}
            <span className="text-muted-foreground">({formatBytes(file.size)})</span>
          </p>
        ) : (
          <p className="text-muted-foreground text-sm">Drag the customer file here, or</p>
        )}
        <Button
          type="button"
          variant="outline"
          disabled={disabled}
          onClick={() => input.current?.click()}
        >
          {file ? 'Choose another file' : 'Browse for a file'}
        </Button>
        <input
          ref={input}
          id="customer_file"
          type="file"
          accept=".csv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="sr-only"
          tabIndex={-1}
          aria-label="Customer file"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'customer_file-error' : undefined}
          onChange={(event) => {
            onFile(event.target.files?.[0]);
            event.target.value = '';
          }}
        />
      </div>
      {error ? (
        <p id="customer_file-error" role="alert" className="text-destructive text-sm">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const ROLE_LABEL = { numbers: 'numbers', id: 'customer id', name: 'name', phone: 'phone' } as const;

function CsvPreviewTable({ preview }: { preview: Extract<FilePreview, { kind: 'csv' }> }) {
  const roles = new Map<number, string>();
  const cols = preview.columns;
  if (cols) {
    if (cols.numbers.kind === 'seven')
      cols.numbers.indexes.forEach((i, k) => roles.set(i, `n${k + 1}`));
    else roles.set(cols.numbers.index, ROLE_LABEL.numbers);
    if (cols.id >= 0) roles.set(cols.id, ROLE_LABEL.id);
    if (cols.name >= 0) roles.set(cols.name, ROLE_LABEL.name);
    if (cols.phone >= 0) roles.set(cols.phone, ROLE_LABEL.phone);
  }
  const delimiterName =
    preview.delimiter === ',' ? 'comma' : preview.delimiter === ';' ? 'semicolon' : 'tab';
  return (
    <div className="grid gap-2" data-testid="power7-preview">
      <p className="text-muted-foreground text-sm">
        Preview of the first rows ({delimiterName}-separated). Highlighted columns are the ones the
        analysis reads.
      </p>
      <ScrollRegion label="Preview of the file" className="border">
        <table className="w-full text-sm">
          <caption className="sr-only">First rows of the customer file</caption>
          <thead>
            <tr className="border-b">
              {preview.header.map((name, i) => (
                <th
                  key={i}
                  scope="col"
                  className={cn(
                    'px-2 py-1.5 text-left font-medium whitespace-nowrap',
                    roles.has(i) ? 'bg-primary/10' : '',
                  )}
                >
                  {name || `column ${i + 1}`}
                  {roles.has(i) ? (
                    <span className="text-primary block text-xs font-normal">{roles.get(i)}</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row, r) => (
              <tr key={r} className="border-b last:border-0">
                {preview.header.map((_, i) => (
                  <td
                    key={i}
                    className={cn(
                      'px-2 py-1 whitespace-nowrap',
                      roles.has(i) ? 'bg-primary/5' : '',
                    )}
                  >
                    {row[i] ?? ''}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </div>
  );
}
