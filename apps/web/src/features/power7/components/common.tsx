import { ShieldAlert, TriangleAlert } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import type { SessionStatus } from '@pa/contracts/power7';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { errorMessage } from '@/lib/api/api-error';
import { cn } from '@/lib/utils';

/** A draw's or a ticket's numbers as balls; `highlight` marks the matched ones. */
export function NumberBalls({
  numbers,
  highlight,
  label,
}: {
  numbers: readonly number[];
  highlight?: readonly number[];
  label?: string;
}) {
  const marked = new Set(highlight ?? []);
  return (
    <span
      className="inline-flex flex-nowrap gap-1"
      aria-label={label ?? numbers.join(', ')}
      role="img"
    >
      {numbers.map((n) => (
        <span
          key={n}
          aria-hidden="true"
          className={cn(
            'inline-flex size-7 items-center justify-center rounded-full border text-xs font-semibold tabular-nums',
            highlight === undefined || marked.has(n)
              ? 'border-primary bg-primary text-primary-foreground'
              : 'border-border bg-background text-muted-foreground',
          )}
        >
          {n}
        </span>
      ))}
    </span>
  );
}

const STATUS_LABEL: Record<SessionStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export function StatusBadge({ status }: { status: SessionStatus }) {
  const variant =
    status === 'done'
      ? 'default'
      : status === 'failed'
        ? 'destructive'
        : status === 'cancelled'
          ? 'outline'
          : 'secondary';
  return <Badge variant={variant}>{STATUS_LABEL[status]}</Badge>;
}

/** The page heading of every step. */
export function StepHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: React.ReactNode;
  actions?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="text-muted-foreground max-w-3xl">{description}</p> : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

/** The 403 state: what is missing and who can give it. */
export function NoPermission({ permission, what }: { permission: string; what: string }) {
  return (
    <Card role="alert" data-testid="power7-forbidden">
      <CardHeader>
        <ShieldAlert className="text-destructive size-6" aria-hidden="true" />
        <CardTitle>You cannot {what}</CardTitle>
        <CardDescription>
          Your account does not have the <code className="font-mono">{permission}</code> permission.
          Ask an administrator of your company to give it to one of your roles.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link to="/app">Back to the dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** A failed load: the reason and a retry, instead of a blank page. */
export function LoadError({
  error,
  onRetry,
  title = 'The Power 7 service did not answer',
}: {
  error: unknown;
  onRetry: () => void;
  title?: string;
}) {
  return (
    <Card role="alert">
      <CardHeader>
        <TriangleAlert className="text-destructive size-6" aria-hidden="true" />
        <CardTitle>{title}</CardTitle>
        <CardDescription>{errorMessage(error)}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button onClick={onRetry}>Try again</Button>
      </CardContent>
    </Card>
  );
}

/** The status code of a failed RTK Query call, when it has one. */
export function httpStatusOf(error: unknown): number | string | undefined {
  return typeof error === 'object' && error !== null && 'status' in error
    ? (error as { status: number | string }).status
    : undefined;
}

/** A link button on a NoticeCard: where it goes and what it says; the first one is the main way. */
interface NoticeLink {
  to: string;
  label: string;
}

/** A card that stands for a page's content: why there is nothing to show, and where to go. */
export function NoticeCard({
  title,
  description,
  alert = false,
  testId,
  links,
}: {
  title: string;
  description: React.ReactNode;
  /** Announced at once: something went away rather than was not chosen yet. */
  alert?: boolean;
  testId?: string;
  links: NoticeLink[];
}) {
  return (
    <Card role={alert ? 'alert' : undefined} data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        {links.map((link, i) => (
          <Button key={link.to} asChild variant={i === 0 ? 'default' : 'outline'}>
            <Link to={link.to}>{link.label}</Link>
          </Button>
        ))}
      </CardContent>
    </Card>
  );
}

const NEW_ANALYSIS: NoticeLink = { to: '/app/power7/parameters', label: 'New analysis' };
const YOUR_SESSIONS: NoticeLink = { to: '/app/power7', label: 'Your sessions' };

/** No session named in the address: open one, or start one. */
export const NoSessionChosen = () => (
  <NoticeCard
    title="No session chosen"
    description="Open one of your sessions, or start a new analysis."
    links={[NEW_ANALYSIS, YOUR_SESSIONS]}
  />
);

/** No draw named in the address: the winners need one. */
export const NoDrawChosen = () => (
  <NoticeCard
    title="No draw chosen"
    description="Choose a draw in the list of an analysis to see its winners."
    links={[YOUR_SESSIONS]}
  />
);

/** A session that expired or was cleared (a 404 from the service), with the way to a new one. */
export function SessionGone({ more = '' }: { more?: string }) {
  return (
    <NoticeCard
      alert
      testId="power7-session-gone"
      title="This session no longer exists"
      description={`It expired (sessions are kept for 24 hours) or was cleared.${more}`}
      links={[NEW_ANALYSIS]}
    />
  );
}
