/**
 * Rejected rows counted by the kind of their reason (`wrong field count`, `number out of range`, …),
 * so a session can say at a glance why most of its rows were refused. The reasons themselves are
 * the readers' (row-numbers.ts, ticket-reader.ts): each kind is recognised by how its reason starts.
 */
const KINDS: [prefix: RegExp, kind: string][] = [
  [/^wrong field count/, 'wrong field count'],
  [/^out of pool/, 'number out of range'],
  [/^duplicate/, 'duplicate number'],
  [/is not an integer$/, 'not a number'],
  [/^wrong count/, 'wrong number count'],
  [/^empty/, 'no numbers'],
  [/^malformed quotes/, 'malformed quotes'],
];

/** The kind of a rejected row's reason ("other" for a reason no kind names). */
export function reasonKind(reason: string): string {
  for (const [pattern, kind] of KINDS) if (pattern.test(reason)) return kind;
  return 'other';
}

/** Counts reasons by kind as rows are rejected. */
export class ReasonCounts {
  readonly counts: Record<string, number> = {};

  add(reason: string): void {
    const kind = reasonKind(reason);
    this.counts[kind] = (this.counts[kind] ?? 0) + 1;
  }
}
