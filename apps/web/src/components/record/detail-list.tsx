import type * as React from 'react';

/** Label/value rows of a view page. */
export function DetailList({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <dl className="grid gap-x-4 gap-y-3 sm:grid-cols-[10rem_1fr]">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="min-w-0 text-sm font-medium wrap-anywhere">
            {value === '' || value == null ? '—' : value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
