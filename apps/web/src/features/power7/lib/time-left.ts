/**
 * A time left a person can trust: it only ever counts down. A raw estimate (elapsed × left / done)
 * jumps up whenever a phase runs slower than the last; shown as is, "about 40 s" becomes "about
 * 55 s" and the reader stops believing it.
 */
export interface Countdown {
  /** When the shown value was last set (ms) and what it was (s). */
  at: number;
  seconds: number;
}

/**
 * The next value to show: the lower of the new estimate and the last shown value counted down by
 * the time since; null (hide it) while there is no estimate.
 */
export function nextCountdown(
  previous: Countdown | null,
  estimate: number | null,
  now: number,
): Countdown | null {
  if (estimate === null || !Number.isFinite(estimate)) return previous && { ...previous };
  const countedDown = previous ? previous.seconds - (now - previous.at) / 1000 : Infinity;
  return { at: now, seconds: Math.max(0, Math.min(estimate, countedDown)) };
}

/** "a few seconds", "about 40 s", "about 3 min": rounded as a person says it, never "about less than a second". */
export function timeLeftText(seconds: number): string {
  if (seconds < 10) return 'a few seconds';
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5} s`;
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} min`;
}
