import type { BulkUserAnswer } from '@pa/contracts/users-bulk';
import { ScrollRegion } from '@/components/ui/table';

/** What a bulk change did: how many changed, and each user that could not be changed, with why. */
export function BulkChangeResult({
  answer,
  nameOf,
}: {
  answer: BulkUserAnswer;
  nameOf: (id: string) => string;
}) {
  const unchanged = answer.results.filter((r) => r.ok && !r.changed).length;
  const failures = answer.results.filter((r) => !r.ok);
  return (
    <div className="grid gap-3 text-sm">
      <p role="status">
        {answer.succeeded - unchanged} changed
        {unchanged ? `, ${unchanged} already as asked` : ''}
        {failures.length ? `, ${failures.length} could not be changed.` : '.'}
      </p>
      {failures.length ? (
        <ScrollRegion label="Users not changed" className="max-h-64 rounded-md border">
          <ul className="grid gap-1 p-2" aria-label="Users not changed">
            {failures.map((failure) => (
              <li key={failure.id} className="rounded-md border px-3 py-2">
                <span className="font-medium break-all">{nameOf(failure.id)}</span>
                <span className="block text-destructive">{failure.error.message}</span>
              </li>
            ))}
          </ul>
        </ScrollRegion>
      ) : null}
    </div>
  );
}
