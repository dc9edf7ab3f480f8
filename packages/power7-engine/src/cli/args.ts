import { MATCH_TYPES, type MatchType, type Payouts, validatePayouts } from '../core/model';

/** A bad flag or value: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function parseNumber(v: string | undefined, flag: string): number {
  if (v === undefined || v.trim() === '' || !Number.isFinite(Number(v))) {
    throw new UsageError(`${flag} needs a number, got "${v ?? ''}".`);
  }
  const n = Number(v);
  // payouts name their match type in the engine's own message
  if (n < 0 && !flag.startsWith('--payouts')) {
    throw new UsageError(`${flag} must be 0 or more, got ${v}.`);
  }
  return n;
}

/**
 * `--budget -5` as `--budget=-5`: node's parseArgs takes a value that starts with `-` for another
 * option and answers "argument is ambiguous"; a negative number after a flag that takes a value is
 * that flag's value, which the flag's own check then refuses in words.
 */
export function joinNegativeValues(argv: string[], valueFlags: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (valueFlags.includes(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** `3=10,4=100,5=1000,6=10000,7=1000000` → payouts (all five match types required). */
export function parsePayouts(text: string): Payouts {
  const out: Partial<Record<MatchType, number>> = {};
  for (const part of text.split(',')) {
    const m = /^\s*([3-7])\s*=\s*([^\s]+)\s*$/.exec(part);
    if (!m) throw new UsageError(`--payouts: "${part}" is not of the form <3..7>=<amount>.`);
    const k = Number(m[1]) as MatchType;
    if (out[k] !== undefined) throw new UsageError(`--payouts: match type ${k} given twice.`);
    out[k] = parseNumber(m[2], `--payouts ${k}`);
  }
  for (const k of MATCH_TYPES) {
    if (out[k] === undefined)
      throw new UsageError(`--payouts: the payout for ${k} matches is missing.`);
  }
  return validatePayouts(out);
}
