import { formatDateTime, formatDateTimeExact, formatRelative } from '@/lib/format';

/**
 * "3 min ago", with the exact date and time — seconds and time zone — on hover (title) and for
 * machines (`dateTime`).
 */
export function RelativeTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatDateTimeExact(iso)} className="whitespace-nowrap">
      {formatRelative(iso)}
    </time>
  );
}

/** "29 Nov 2026, 14:05" in the viewer's locale, with seconds and time zone on hover. */
export function ExactTime({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={formatDateTimeExact(iso)}>
      {formatDateTime(iso)}
    </time>
  );
}
