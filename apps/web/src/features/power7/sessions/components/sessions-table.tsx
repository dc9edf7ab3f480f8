import { Check, Columns3, Pencil, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { SESSION_NAME_MAX, SESSION_NOTE_MAX, type Power7Session } from '@pa/contracts/power7';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, fieldErrors } from '@/lib/api/api-error';
import { useDeleteSessionMutation, useEditSessionMutation } from '../../api/scenario-endpoints';
import { usePower7Access } from '../../hooks/use-power7-access';
import { formatAge, formatCount } from '../../lib/format';
import { budgetMoney, payoutsMoney } from '../../lib/money';
import { compareLink, fileGroupOf, MAX_COMPARED } from '../../scenarios/lib/scenarios';
import { StatusBadge } from '../../components/common';

const expiry = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const expiryText = (iso: string) => expiry.format(new Date(iso));

const sessionLink = (s: Power7Session) =>
  `/app/power7/process?session=${encodeURIComponent(s._id)}`;

/**
 * The caller's sessions with what tells them apart (name and note, pool, payouts, budget, currency),
 * when each is deleted, inline editing of the name and note, deleting one, and choosing up to three
 * finished runs of one file to compare.
 */
export function SessionsTable({ items }: { items: Power7Session[] }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const group = items.find((s) => s._id === chosen[0]);
  const choose = (s: Power7Session, on: boolean) =>
    setChosen((ids) =>
      on ? [...ids, s._id].slice(0, MAX_COMPARED) : ids.filter((id) => id !== s._id),
    );
  return (
    <div className="grid gap-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Button asChild variant="outline" size="sm" aria-disabled={chosen.length < 2}>
          <Link
            to={compareLink(chosen)}
            onClick={(event) => chosen.length < 2 && event.preventDefault()}
            data-testid="power7-compare-chosen"
          >
            <Columns3 className="size-4" aria-hidden="true" /> Compare chosen runs ({chosen.length})
          </Link>
        </Button>
        <span className="text-muted-foreground">
          Tick up to {MAX_COMPARED} finished runs of one file.
        </span>
      </div>
      <Table aria-label="Your sessions" scrollLabel="Your sessions">
        <TableHeader>
          <TableRow>
            <TableHead>
              <span className="sr-only">Compare</span>
            </TableHead>
            <TableHead>Session</TableHead>
            <TableHead className="text-right">Tickets</TableHead>
            <TableHead className="text-right">Pool</TableHead>
            <TableHead>Payouts 3 / 4 / 5 / 6 / 7</TableHead>
            <TableHead>Budget</TableHead>
            <TableHead>Status</TableHead>
            <TableHead className="text-right">Qualified draws</TableHead>
            <TableHead>Uploaded</TableHead>
            <TableHead>Deleted</TableHead>
            <TableHead>
              <span className="sr-only">Actions</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {items.map((s) => (
            <TableRow key={s._id} data-testid="power7-session-row">
              <TableCell>
                <Checkbox
                  aria-label={`Compare ${s.name ?? s.originalName ?? 'this session'}`}
                  checked={chosen.includes(s._id)}
                  disabled={
                    s.status !== 'done' ||
                    (!chosen.includes(s._id) &&
                      (chosen.length >= MAX_COMPARED ||
                        (group !== undefined && fileGroupOf(group) !== fileGroupOf(s))))
                  }
                  onCheckedChange={(on) => choose(s, on === true)}
                />
              </TableCell>
              <TableCell className="max-w-72 align-top">
                <SessionLabel session={s} />
              </TableCell>
              <TableCell className="text-right tabular-nums">
                {s.counts.accepted !== undefined ? formatCount(s.counts.accepted) : '—'}
              </TableCell>
              <TableCell className="text-right tabular-nums">{s.params.pool_size}</TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {payoutsMoney(s.params)}
              </TableCell>
              <TableCell className="whitespace-nowrap tabular-nums">
                {budgetMoney(s.params)}
              </TableCell>
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
              <TableCell>
                <time dateTime={s.expiresAt}>{expiryText(s.expiresAt)}</time>
              </TableCell>
              <TableCell>
                <DeleteSession session={s} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The session's name (else its file), its note, and editing both in place. */
function SessionLabel({ session: s }: { session: Power7Session }) {
  const [editing, setEditing] = useState(false);
  const title = s.name ?? s.originalName ?? 'Customer file';
  if (editing) return <EditSession session={s} onDone={() => setEditing(false)} />;
  return (
    <div className="grid gap-1">
      <div className="flex items-center gap-1">
        <Link
          to={sessionLink(s)}
          className="text-primary truncate font-medium underline-offset-4 hover:underline"
        >
          {title}
        </Link>
        <Button
          variant="ghost"
          size="icon"
          className="size-7"
          aria-label={`Rename or annotate ${title}`}
          onClick={() => setEditing(true)}
        >
          <Pencil className="size-3.5" aria-hidden="true" />
        </Button>
      </div>
      {s.name && s.originalName ? (
        <span className="text-muted-foreground truncate text-xs">{s.originalName}</span>
      ) : null}
      {s.sourceSessionId ? <span className="text-muted-foreground text-xs">Rerun</span> : null}
      {s.note ? (
        <p className="text-muted-foreground line-clamp-2 text-xs whitespace-pre-line">{s.note}</p>
      ) : null}
    </div>
  );
}

function EditSession({ session: s, onDone }: { session: Power7Session; onDone: () => void }) {
  const [edit, saving] = useEditSessionMutation();
  const [name, setName] = useState(s.name ?? '');
  const [note, setNote] = useState(s.note ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = async () => {
    try {
      await edit({ session: s._id, body: { name, note } }).unwrap();
      onDone();
    } catch (error) {
      const fields = fieldErrors(error);
      setErrors(fields);
      if (!Object.keys(fields).length) toast.error(errorMessage(error));
    }
  };
  const nameId = `name-${s._id}`;
  const noteId = `note-${s._id}`;
  return (
    <form
      className="grid gap-2"
      aria-label="Edit the session"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label htmlFor={nameId} className="text-xs font-medium">
        Name
      </label>
      <Input
        id={nameId}
        value={name}
        maxLength={SESSION_NAME_MAX}
        placeholder={s.originalName ?? 'Customer file'}
        aria-invalid={errors.name ? true : undefined}
        onChange={(event) => setName(event.target.value)}
      />
      {errors.name ? (
        <p className="text-destructive text-xs" role="alert">
          {errors.name}
        </p>
      ) : null}
      <label htmlFor={noteId} className="text-xs font-medium">
        Note
      </label>
      <Textarea
        id={noteId}
        value={note}
        maxLength={SESSION_NOTE_MAX}
        rows={2}
        aria-invalid={errors.note ? true : undefined}
        onChange={(event) => setNote(event.target.value)}
      />
      {errors.note ? (
        <p className="text-destructive text-xs" role="alert">
          {errors.note}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={saving.isLoading}>
          <Check className="size-4" aria-hidden="true" /> Save
        </Button>
        <Button type="button" size="sm" variant="outline" onClick={onDone}>
          <X className="size-4" aria-hidden="true" /> Cancel
        </Button>
      </div>
    </form>
  );
}

function DeleteSession({ session: s }: { session: Power7Session }) {
  const { canClear } = usePower7Access();
  const [remove, removing] = useDeleteSessionMutation();
  const [open, setOpen] = useState(false);
  const title = s.name ?? s.originalName ?? 'this session';
  return (
    <>
      <Button
        variant="ghost"
        size="icon"
        className="size-8"
        disabled={!canClear}
        aria-label={`Delete ${title}`}
        title={canClear ? undefined : 'Needs the power7.sessions.clear permission'}
        onClick={() => setOpen(true)}
      >
        <Trash2 className="size-4" aria-hidden="true" />
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={<>Delete {title}?</>}
        description={
          <>
            Its results are deleted
            {s.status === 'running' || s.status === 'queued' ? ' and its analysis is stopped' : ''}.
            Other runs of the same file keep theirs. This cannot be undone.
          </>
        }
        confirmLabel="Delete session"
        cancelLabel="Keep it"
        danger
        busy={removing.isLoading}
        onConfirm={async () => {
          await remove(s._id).unwrap();
          return 'The session was deleted.';
        }}
      />
    </>
  );
}
