import { formatDateTime, formatRelative } from '@/lib/format';

/** "3 min ago", with the exact date and time on hover (title) and for machines (`dateTime`). */
export function RelativeTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  const absolute = formatDateTime(iso);
  return (
    <time dateTime={iso} title={absolute} className="whitespace-nowrap">
      {formatRelative(iso)}
    </time>
  );
}
