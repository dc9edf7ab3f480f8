const count = new Intl.NumberFormat('en-US');
/** A count with thousands separators (5,830,000), the same on every screen. */
export const formatCount = (value: number) => count.format(value);

/** Dates as people read them in the admin screens ("24 Nov 2026, 14:05"); empty → "—". */
export function formatDateTime(iso: string | null | undefined): string {
  return iso
    ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : '—';
}

/** A date to the second with its time zone ("29 Nov 2026, 14:05:09 CET"), for hover titles. */
export function formatDateTimeExact(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'long' });
}

export const fullName = (u: { userFirstName: string; userLastName: string }) =>
  `${u.userFirstName} ${u.userLastName}`.trim();

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Infinity],
];

/** "3 min ago", "in 2 days", "now" (Intl.RelativeTimeFormat, short); empty → "—". */
export function formatRelative(
  iso: string | null | undefined,
  now = Date.now(),
  locale?: string,
): string {
  if (!iso) return '—';
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '—';
  let amount = (time - now) / 1000;
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of RELATIVE_STEPS) {
    if (Math.abs(amount) < size) return format.format(Math.round(amount), unit);
    amount /= size;
  }
  return formatDateTime(iso);
}
