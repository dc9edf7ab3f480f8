import type { ImportAnswer, ImportRowResult } from '@pa/contracts/users-bulk';
import { CheckCircle2, CircleAlert, CirclePlus } from 'lucide-react';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';

const OUTCOME: Record<ImportRowResult['outcome'], { label: string; icon: typeof CheckCircle2 }> = {
  create: { label: 'Will be created', icon: CirclePlus },
  created: { label: 'Created', icon: CheckCircle2 },
  error: { label: 'Not imported', icon: CircleAlert },
};

/** Every row's outcome, problems named per column (a dry run's or an apply's answer). */
export function ImportReport({ answer }: { answer: ImportAnswer }) {
  const title = answer.dryRun ? 'Check of the file' : 'Import result';
  return (
    <section aria-labelledby="import-report-title" className="grid gap-2">
      <h2 id="import-report-title" className="text-lg font-semibold">
        {title}
      </h2>
      <p role="status" className="text-sm">
        {answer.dryRun
          ? `${answer.valid} row(s) can be imported, ${answer.invalid} cannot. Nothing has been changed yet.`
          : `${answer.created} user(s) created, ${answer.invalid} row(s) not imported.`}
      </p>
      <div className="rounded-md border">
        <Table aria-label={title} scrollLabel={`${title} (scrolls sideways)`}>
          <TableHeader>
            <TableRow>
              <TableHead>Line</TableHead>
              <TableHead>Email</TableHead>
              <TableHead>User name</TableHead>
              <TableHead>Outcome</TableHead>
              <TableHead>Problems</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {answer.rows.map((row) => {
              const { label, icon: Icon } = OUTCOME[row.outcome];
              return (
                <TableRow key={row.line}>
                  <TableCell>{row.line}</TableCell>
                  <TableCell className="max-w-56 truncate">{row.email}</TableCell>
                  <TableCell className="max-w-48 truncate">{row.userName}</TableCell>
                  <TableCell>
                    <span
                      className={
                        row.outcome === 'error'
                          ? 'inline-flex items-center gap-1 text-destructive'
                          : 'inline-flex items-center gap-1'
                      }
                    >
                      <Icon aria-hidden="true" className="size-4" />
                      {label}
                    </span>
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    {row.errors.length ? (
                      <ul className="grid gap-0.5">
                        {row.errors.map((error) => (
                          <li key={`${error.field}:${error.message}`}>
                            <span className="font-medium">{error.field}</span>: {error.message}
                          </li>
                        ))}
                      </ul>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}
