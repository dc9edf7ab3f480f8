import { FilePlus2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyList, SkeletonRows } from '../../components/sections';
import { useClearAllSessionsMutation, usePower7SessionsQuery } from '../../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../../hooks/use-power7-access';
import { formatCount } from '../../lib/format';
import { LoadError, NoPermission, StepHeader, httpStatusOf } from '../../components/common';
import { SessionsTable } from './sessions-table';

const SESSIONS_PAGE_SIZE = 50;

export function Power7Home() {
  const access = usePower7Access();
  const sessions = usePower7SessionsQuery(
    { page: 1, pageSize: SESSIONS_PAGE_SIZE },
    { skip: !access.canRun },
  );
  const [clearAll, clearing] = useClearAllSessionsMutation();
  const [open, setOpen] = useState(false);
  const items = sessions.data?.items ?? [];
  const total = sessions.data?.total ?? 0;

  const onClear = async () => {
    const { deleted } = await clearAll().unwrap();
    return deleted === 1 ? '1 session deleted.' : `${deleted} sessions deleted.`;
  };

  const forbidden = !access.canRun || httpStatusOf(sessions.error) === 403;
  return (
    <div className="grid grid-cols-1 gap-6">
      <PageTitle title="Power 7" />
      <StepHeader
        title="Power 7"
        description="Upload your customers' tickets with a budget and the payout of each match type: every possible draw is analysed, so you see which draws stay within budget and what each one would cost. Then list the winners of any draw and download them as CSV."
        actions={
          <>
            {access.canRun ? (
              <Button asChild>
                <Link to="/app/power7/parameters">
                  <FilePlus2 className="size-4" aria-hidden="true" /> New analysis
                </Link>
              </Button>
            ) : (
              <Button disabled title="Needs the power7.run permission">
                <FilePlus2 className="size-4" aria-hidden="true" /> New analysis
              </Button>
            )}
            <Button
              variant="outline"
              disabled={!access.canClear || total === 0}
              title={access.canClear ? undefined : 'Needs the power7.sessions.clear permission'}
              onClick={() => setOpen(true)}
            >
              <Trash2 className="size-4" aria-hidden="true" /> Clear all sessions
            </Button>
            <ConfirmDialog
              open={open}
              onOpenChange={setOpen}
              title={
                <>
                  Delete{' '}
                  {total === 1 ? 'your 1 session' : `all ${formatCount(total)} of your sessions`}?
                </>
              }
              description="Their uploaded files and results are deleted too, and running analyses are stopped. This cannot be undone."
              confirmLabel={`Delete ${total === 1 ? 'session' : 'sessions'}`}
              cancelLabel="Keep them"
              danger
              busy={clearing.isLoading}
              onConfirm={onClear}
            />
          </>
        }
      />
      {access.canRun && !access.canClear ? (
        <p className="text-muted-foreground -mt-4 text-sm">
          Clearing all sessions needs the <code className="font-mono">power7.sessions.clear</code>{' '}
          permission.
        </p>
      ) : null}
      {forbidden ? (
        <NoPermission permission={POWER7_PERMISSIONS.run} what="run Power 7 analyses" />
      ) : sessions.error ? (
        <LoadError error={sessions.error} onRetry={() => void sessions.refetch()} />
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Your sessions</CardTitle>
            <CardDescription>
              Newest first. A session and its files are deleted 24 hours after its upload (the
              Deleted column says when).
            </CardDescription>
          </CardHeader>
          <CardContent>
            {sessions.isLoading ? (
              <SkeletonRows label="Loading sessions" />
            ) : items.length === 0 ? (
              <EmptyList
                testId="power7-no-sessions"
                title="No analyses yet."
                action={
                  <Button asChild>
                    <Link to="/app/power7/parameters">New analysis</Link>
                  </Button>
                }
              >
                Start one with a customer file (CSV or XLSX) of tickets of seven numbers.
              </EmptyList>
            ) : (
              <SessionsTable items={items} />
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}
