import { useState } from 'react';
import { nextCountdown, type Countdown } from '../lib/time-left';

/**
 * Seconds left that never rise from one estimate to the next (lib/time-left), or null. `at` is when
 * the estimate was made (ms, any clock the caller keeps to): a new `at` is a new estimate.
 */
export function useCountdown(seconds: number | null, at: number): number | null {
  const [state, setState] = useState<{ at: number; shown: Countdown | null }>({
    at: Number.NaN,
    shown: null,
  });
  let shown = state.shown;
  if (at !== state.at) {
    // state adjusted while rendering, once per estimate (react.dev "storing information from previous renders")
    shown = nextCountdown(state.shown, seconds, at);
    setState({ at, shown });
  }
  return seconds === null ? null : (shown?.seconds ?? null);
}
