import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, IMPORT_TEMPLATE } from '@pa/contracts/users-bulk';
import { Download } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';

/** Offers the template CSV as a download (built in the browser, no request). */
function downloadTemplate() {
  const url = URL.createObjectURL(new Blob([IMPORT_TEMPLATE], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'users-import-template.csv';
  link.click();
  URL.revokeObjectURL(url);
}

/** Where the CSV comes from: a file picked, or text pasted; both fill the same box. */
export function CsvSource({ csv, onChange }: { csv: string; onChange: (csv: string) => void }) {
  const fileId = useId();
  const textId = useId();
  const helpId = useId();
  return (
    <div className="grid gap-4">
      <p id={helpId} className="text-sm text-muted-foreground">
        Columns: {IMPORT_COLUMNS.join(', ')} (header row first; roles by name, several separated by
        “;”; status active, inactive or locked). At most {IMPORT_MAX_ROWS} users per file. Imported
        users get no password: they sign in after “Forgot password”.
      </p>
      <div>
        <Button type="button" variant="outline" onClick={downloadTemplate}>
          <Download aria-hidden="true" />
          Download the template CSV
        </Button>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={fileId}>CSV file</Label>
        <input
          id={fileId}
          type="file"
          accept=".csv,text/csv"
          className="text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-sm"
          onChange={async (event) => {
            const file = event.target.files?.[0];
            if (file) onChange(await file.text());
          }}
        />
      </div>
      <div className="grid gap-2">
        <Label htmlFor={textId}>Or paste the CSV</Label>
        <Textarea
          id={textId}
          aria-describedby={helpId}
          rows={8}
          // grows with the text up to ~16 lines, then scrolls: 300 pasted lines made the page as tall
          className="max-h-80 overflow-y-auto font-mono text-xs"
          value={csv}
          onChange={(event) => onChange(event.target.value)}
        />
      </div>
    </div>
  );
}
