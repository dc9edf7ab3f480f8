import type { ImportAnswer } from '@pa/contracts/users-bulk';
import { useState } from 'react';
import { useSelector } from 'react-redux';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api/api-error';
import { selectUserDetails } from '@/lib/signed-in/auth-slice';
import { CsvSource } from './csv-source';
import { ImportReport } from './import-report';
import { useImportUsersMutation } from './user-import-api';

/**
 * "Import users": upload or paste a CSV, check it (dry run, nothing written), then import the valid
 * rows; each step shows every row's outcome.
 */
export function ImportUsersPage() {
  const allowed = useSelector(selectUserDetails)?.permissions?.includes('users.create') ?? false;
  const [csv, setCsv] = useState('');
  const [answer, setAnswer] = useState<ImportAnswer | null>(null);
  // each answer gets a fresh report (its own "problems only" choice, focus on its heading)
  const [answers, setAnswers] = useState(0);
  const [problem, setProblem] = useState('');
  const [run, { isLoading }] = useImportUsersMutation();

  const send = async (dryRun: boolean) => {
    setProblem('');
    try {
      setAnswer(await run({ csv, dryRun }).unwrap());
      setAnswers((n) => n + 1);
    } catch (error) {
      setAnswer(null);
      setProblem(errorMessage(error));
    }
  };
  const checked = answer?.dryRun === true;

  return (
    <div className="grid max-w-4xl gap-6">
      <PageTitle title="Import users" />
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Import users</h1>
        <p className="text-sm text-muted-foreground">
          Check a CSV first; nothing changes until you import.{' '}
          <Link to="/app/company/users" className="underline underline-offset-4">
            Back to the users
          </Link>
        </p>
      </div>
      {!allowed ? (
        <p role="alert" className="text-sm">
          Importing users needs the “users.create” permission. Ask an administrator of your company.
        </p>
      ) : (
        <>
          <CsvSource
            csv={csv}
            onChange={(text) => {
              setCsv(text);
              setAnswer(null);
            }}
          />
          {problem ? (
            <p role="alert" className="text-sm text-destructive">
              {problem}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant={checked ? 'outline' : 'default'}
              disabled={!csv.trim() || isLoading}
              onClick={() => void send(true)}
            >
              Check the file
            </Button>
            {checked && answer.valid > 0 ? (
              <Button type="button" disabled={isLoading} onClick={() => void send(false)}>
                Import {answer.valid} user(s)
              </Button>
            ) : null}
          </div>
          {answer ? <ImportReport key={answers} answer={answer} /> : null}
        </>
      )}
    </div>
  );
}
