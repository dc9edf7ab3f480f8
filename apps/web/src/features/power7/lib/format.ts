export { formatCount } from '@/lib/format';

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

export function formatPercent(share: number): string {
  if (share >= 1) return '100 %';
  const pct = share * 100;
  return `${pct >= 99.9 || pct < 0.1 ? pct.toFixed(2) : pct.toFixed(1)} %`;
}
