import { MATCH_TYPES, type SessionParams } from '@pa/contracts/power7';
import { formatMoney, formatMoneyShort } from './format';

/**
 * A session's amounts in its own currency, one symbol style everywhere (issue #40): Intl's currency
 * style with thousands separators, "€12,345.60" / "$12,345.60" / "CHF 12,345.60", and a session
 * without a currency (older ones, or none chosen) "12,345.60" — never a code written after the
 * number on one page and a symbol before it on another. Built on `formatMoney` (lib/format.ts).
 */

/** The ISO code a session's amounts are in, or undefined when none was named (null, absent, ""). */
export const currencyOf = (params: { currency?: string | null } | null | undefined) =>
  params?.currency?.trim() || undefined;

/** One amount in a currency that may be missing: "€1,234.50", or "1,234.50" without one. */
export const money = (value: number, currency?: string | null) =>
  formatMoney(value, currency || undefined);

/** A chart tick's short amount: "€12.3K", "1.2M". */
export const moneyShort = (value: number, currency?: string | null) =>
  formatMoneyShort(value, currency || undefined);

/** A formatter bound to a session's currency: `const m = moneyOf(status.params); m(1200)`. */
export const moneyOf = (params: { currency?: string | null } | null | undefined) => {
  const currency = currencyOf(params);
  return (value: number) => money(value, currency);
};

/** A label with its unit when there is one: "Total payout (EUR)", or "Total payout". */
export const withUnit = (label: string, currency?: string | null) =>
  currency ? `${label} (${currency})` : label;

/** A session's budget: "≤ €60,000.00", or for a range "€40,000.00 – €90,000.00". */
export function budgetMoney(params: SessionParams): string {
  const m = moneyOf(params);
  return params.budget_type === 'fixed'
    ? `≤ ${m(params.budget ?? 0)}`
    : `${m(params.budget_min ?? 0)} – ${m(params.budget_max ?? 0)}`;
}

/** The payouts for 3 … 7 matches: "€1.00 / €5.00 / €50.00 / €500.00 / €5,000.00". */
export const payoutsMoney = (params: SessionParams) =>
  MATCH_TYPES.map((m) => moneyOf(params)(params.payouts[m])).join(' / ');
