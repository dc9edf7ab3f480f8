import type { ImportAnswer, ImportRowResult } from '@pa/contracts/users-bulk';
import { CheckCircle2, CircleAlert, CirclePlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
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

/**
 * Every row's outcome, problems named per column (a dry run's or an apply's answer). With problems,
 * it opens on them alone: 5 bad rows among 300 are what needs work, and the whole file was a page
 * of ~19,000 px. Three narrow columns (the user's email over their user name, the outcome over its
 * problems) so it fits a 360 px screen without scrolling sideways. Takes focus when shown, so the
 * screen moves from the (long) pasted text to what the check found.
 */
export function ImportReport({ answer }: { answer: ImportAnswer }) {
  const title = answer.dryRun ? 'Check of the file' : 'Import result';
  const problems = answer.rows.filter((row) => row.outcome === 'error');
  const [problemsOnly, setProblemsOnly] = useState(problems.length > 0);
  const rows = problemsOnly ? problems : answer.rows;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="import-report-title" className="grid gap-2">
      <h2
        id="import-report-title"
        ref={heading}
        tabIndex={-1}
        className="text-lg font-semibold outline-none"
      >
        {title}
      </h2>
      <p role="status" className="text-sm">
        {answer.dryRun
          ? `${answer.valid} row(s) can be imported, ${answer.invalid} cannot. Nothing has been changed yet.`
          : `${answer.created} user(s) created, ${answer.invalid} row(s) not imported.`}
      </p>
      {problems.length > 0 && problems.length < answer.rows.length ? (
        <div role="group" aria-label="Rows shown" className="flex flex-wrap gap-2">
          <Button
            type="button"
            size="sm"
            variant={problemsOnly ? 'default' : 'outline'}
            aria-pressed={problemsOnly}
            onClick={() => setProblemsOnly(true)}
          >
            Problems only ({problems.length})
          </Button>
          <Button
            type="button"
            size="sm"
            variant={problemsOnly ? 'outline' : 'default'}
            aria-pressed={!problemsOnly}
            onClick={() => setProblemsOnly(false)}
          >
            All rows ({answer.rows.length})
          </Button>
        </div>
      ) : null}
      <div className="rounded-md border">
        <Table aria-label={title} className="table-fixed">
          <TableHeader>
            <TableRow>
              <TableHead className="w-12">Line</TableHead>
              <TableHead className="w-[45%]">User</TableHead>
              <TableHead>Outcome</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <ReportRow key={row.line} row={row} />
            ))}
          </TableBody>
        </Table>
      </div>
    </section>
  );
}

function ReportRow({ row }: { row: ImportRowResult }) {
  const { label, icon: Icon } = OUTCOME[row.outcome];
  return (
    <TableRow className="align-top">
      <TableCell>{row.line}</TableCell>
      <TableCell className="whitespace-normal">
        <span className="block wrap-anywhere">{row.email || '—'}</span>
        <span className="block text-muted-foreground wrap-anywhere">{row.userName || '—'}</span>
      </TableCell>
      <TableCell className="whitespace-normal">
        <span
          className={
            row.outcome === 'error'
              ? 'inline-flex items-center gap-1 text-destructive'
              : 'inline-flex items-center gap-1'
          }
        >
          <Icon aria-hidden="true" className="size-4 shrink-0" />
          {label}
        </span>
        {row.errors.length ? (
          <ul className="mt-1 grid gap-0.5">
            {row.errors.map((error) => (
              <li key={`${error.field}:${error.message}`} className="wrap-anywhere">
                <span className="font-medium">{error.field}</span>: {error.message}
              </li>
            ))}
          </ul>
        ) : null}
      </TableCell>
    </TableRow>
  );
}
