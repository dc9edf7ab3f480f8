import { FilePlus2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { Power7Session } from '@pa/contracts/power7';
import { PageTitle } from '@/components/page-title';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { errorMessage } from '@/lib/api/api-error';
import { useClearAllSessionsMutation, usePower7SessionsQuery } from '../api/power7-endpoints';
import { POWER7_PERMISSIONS, usePower7Access } from '../hooks/use-power7-access';
import { formatAge, formatCount, formatMoney } from '../lib/format';
import { LoadError, NoPermission, StatusBadge, StepHeader, httpStatusOf } from './common';

const SESSIONS_PAGE_SIZE = 50;

export function budgetText(params: Power7Session['params']) {
  return params.budget_type === 'fixed'
    ? `≤ ${formatMoney(params.budget ?? 0)}`
    : `${formatMoney(params.budget_min ?? 0)} – ${formatMoney(params.budget_max ?? 0)}`;
}

/** Where a session opens: its process step (progress, failure, or the finished analysis). */
const sessionLink = (s: Power7Session) =>
  `/app/power7/process?session=${encodeURIComponent(s._id)}`;

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
    try {
      const { deleted } = await clearAll().unwrap();
      toast.success(deleted === 1 ? '1 session deleted.' : `${deleted} sessions deleted.`);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setOpen(false);
    }
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
            <AlertDialog open={open} onOpenChange={setOpen}>
              <AlertDialogTrigger asChild>
                <Button
                  variant="outline"
                  disabled={!access.canClear || total === 0}
                  title={access.canClear ? undefined : 'Needs the power7.sessions.clear permission'}
                >
                  <Trash2 className="size-4" aria-hidden="true" /> Clear all sessions
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogHeader>
                  <AlertDialogTitle>
                    Delete{' '}
                    {total === 1 ? 'your 1 session' : `all ${formatCount(total)} of your sessions`}?
                  </AlertDialogTitle>
                  <AlertDialogDescription>
                    Their uploaded files and results are deleted too, and running analyses are
                    stopped. This cannot be undone.
                  </AlertDialogDescription>
                </AlertDialogHeader>
                <AlertDialogFooter>
                  <AlertDialogCancel>Keep them</AlertDialogCancel>
                  <AlertDialogAction
                    className="bg-destructive text-white hover:bg-destructive/90"
                    disabled={clearing.isLoading}
                    onClick={(event) => {
                      event.preventDefault();
                      void onClear();
                    }}
                  >
                    Delete {total === 1 ? 'session' : 'sessions'}
                  </AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
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
              Newest first. A session and its files are deleted 24 hours after its upload.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {sessions.isLoading ? (
              <div className="grid gap-2" aria-label="Loading sessions">
                <Skeleton className="h-8" />
                <Skeleton className="h-8" />
                <Skeleton className="h-8" />
              </div>
            ) : items.length === 0 ? (
              <div className="grid justify-items-start gap-3 py-4" data-testid="power7-no-sessions">
                <p className="font-medium">No analyses yet.</p>
                <p className="text-muted-foreground text-sm">
                  Start one with a customer file (CSV or XLSX) of tickets of seven numbers.
                </p>
                <Button asChild>
                  <Link to="/app/power7/parameters">New analysis</Link>
                </Button>
              </div>
            ) : (
              <SessionsTable items={items} />
            )}
          </CardContent>
        </Card>
      )}
    </div>
  );
}

function SessionsTable({ items }: { items: Power7Session[] }) {
  return (
    <Table aria-label="Your sessions">
      <TableHeader>
        <TableRow>
          <TableHead>File</TableHead>
          <TableHead className="text-right">Tickets</TableHead>
          <TableHead>Budget</TableHead>
          <TableHead>Status</TableHead>
          <TableHead className="text-right">Qualified draws</TableHead>
          <TableHead>Uploaded</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((s) => (
          <TableRow key={s._id}>
            <TableCell className="max-w-64 truncate">
              <Link
                to={sessionLink(s)}
                className="text-primary font-medium underline-offset-4 hover:underline"
              >
                {s.originalName ?? 'Customer file'}
              </Link>
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {s.counts.accepted !== undefined ? formatCount(s.counts.accepted) : '—'}
            </TableCell>
            <TableCell className="tabular-nums">{budgetText(s.params)}</TableCell>
            <TableCell>
              <StatusBadge status={s.status} />
            </TableCell>
            <TableCell className="text-right tabular-nums">
              {s.counts.drawsQualified !== undefined ? formatCount(s.counts.drawsQualified) : '—'}
            </TableCell>
            <TableCell>
              <time dateTime={s.createdAt} title={new Date(s.createdAt).toLocaleString()}>
                {formatAge(s.createdAt)}
              </time>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
