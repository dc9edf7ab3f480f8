import { formatCount } from '@/lib/format';

export { formatCount };

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** One formatter per currency and style, made once (building an Intl.NumberFormat is not cheap). */
function moneyFormat(currency: string | undefined, compact: boolean): Intl.NumberFormat {
  const key = `${currency ?? ''}:${compact}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const style: Intl.NumberFormatOptions = compact
      ? { notation: 'compact', maximumSignificantDigits: 3 }
      : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
    try {
      format = new Intl.NumberFormat('en-US', {
        ...style,
        ...(currency ? { style: 'currency', currency } : {}),
      });
    } catch {
      // an unknown currency code: the plain number rather than a broken screen
      format = new Intl.NumberFormat('en-US', style);
    }
    moneyFormats.set(key, format);
  }
  return format;
}

/**
 * An amount of money: "12,345.60", or with an ISO 4217 code "$12,345.60" / "€12,345.60". The
 * session's currency is optional (older sessions have none), so every amount goes through here.
 */
export const formatMoney = (value: number, currency?: string) =>
  moneyFormat(currency, false).format(value);

/** A short amount for chart ticks: "12.3K", "$1.2M". */
export const formatMoneyShort = (value: number, currency?: string) =>
  moneyFormat(currency, true).format(value);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function formatAge(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86400)} d ago`;
}

/**
 * A share as a percentage that never reads as all or nothing when it is not: exactly 0 is "0 %",
 * exactly all is "100 %"; otherwise one decimal, two near 0 and 100 %, and "< 0.01 %" / "> 99.99 %"
 * where two decimals would round to 0.00 or 100.00 (1 draw in 6,724,520 is not "never").
 */
export function formatPercent(share: number): string {
  if (share <= 0) return '0 %';
  if (share >= 1) return '100 %';
  const pct = share * 100;
  const text = pct >= 99.9 || pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1);
  if (Number(text) === 0) return '< 0.01 %';
  if (Number(text) === 100) return '> 99.99 %';
  return `${text} %`;
}

/** Shares under this read with "1 in N" beside them: a percentage that small is hard to picture. */
export const RARE_SHARE = 0.01;

/** "1 in 333": how rare `part` of `whole` is (N rounded to a whole number, at least 1). */
export const oneIn = (part: number, whole: number) =>
  `1 in ${formatCount(Math.max(1, Math.round(whole / part)))}`;

/**
 * The counts behind a share: "5,674,106 of 6,724,520"; a share under 1 % (not 0) adds how rare it
 * is: "20,173 of 6,724,520, 1 in 333 draws".
 */
export function countsOf(part: number, whole: number, noun = 'draws'): string {
  const counts = `${formatCount(part)} of ${formatCount(whole)}`;
  return part > 0 && whole > 0 && part / whole < RARE_SHARE
    ? `${counts}, ${oneIn(part, whole)} ${noun}`
    : counts;
}

/**
 * The one way a part of all draws is shown: the percentage with its counts, "84.4 % (5,674,106 of
 * 6,724,520)", "< 0.01 % (1 of 6,724,520, 1 in 6,724,520 draws)", "> 99.99 % (6,724,519 of 6,724,520)".
 */
export const formatShareOf = (part: number, whole: number, noun = 'draws') =>
  `${formatPercent(whole > 0 ? part / whole : 0)} (${countsOf(part, whole, noun)})`;
