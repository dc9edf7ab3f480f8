import type { ColumnMap } from '@pa/contracts/power7-file';
import { fieldText, type CsvRecord } from './csv';
import { PICK } from './model';

const SPACE = 0x20;
const TAB = 0x09;

/**
 * Validates one record's numbers straight from its bytes into `out[0..7)` (ascending).
 * Returns null when valid, else the reason.
 */
export function readNumbers(
  rec: CsvRecord,
  cols: ColumnMap,
  pool: number,
  out: Uint8Array,
): string | null {
  const buf = rec.buf;
  let count = 0;
  let empty = true;
  const vals = tmpVals;
  if (cols.numbers.kind === 'seven') {
    const idx = cols.numbers.indexes;
    for (let k = 0; k < PICK; k++) {
      const f = idx[k]!;
      if (f >= rec.fieldCount) continue;
      let s = rec.start[f]!;
      let e = rec.end[f]!;
      while (s < e && (buf[s] === SPACE || buf[s] === TAB)) s++;
      while (e > s && (buf[e - 1] === SPACE || buf[e - 1] === TAB)) e--;
      if (s === e) continue;
      empty = false;
      let v = 0;
      if (buf[s] === 0x2b) s++; // leading +
      if (s === e) return `"${fieldText(rec, f).trim()}" is not an integer`;
      for (let i = s; i < e; i++) {
        const d = buf[i]! - 0x30;
        if (d < 0 || d > 9) return `"${fieldText(rec, f).trim()}" is not an integer`;
        v = v * 10 + d;
        if (v > 1e6) v = 1e6;
      }
      vals[count++] = v;
    }
    if (empty) return 'empty: no numbers';
    if (count !== PICK) return `wrong count: expected 7 numbers, found ${count}`;
  } else {
    const f = cols.numbers.index;
    if (f < rec.fieldCount) {
      const s0 = rec.start[f]!;
      const e0 = rec.end[f]!;
      let i = s0;
      while (i < e0) {
        const c = buf[i]!;
        if (c === SPACE || c === TAB || c === 0x2c || c === 0x3b || c === 0x2d) {
          i++;
          continue;
        }
        const ts = i;
        let v = 0;
        let ok = true;
        while (i < e0) {
          const ch = buf[i]!;
          if (ch === SPACE || ch === TAB || ch === 0x2c || ch === 0x3b || ch === 0x2d) break;
          const d = ch - 0x30;
          if (d < 0 || d > 9) ok = false;
          else v = Math.min(v * 10 + d, 1e6);
          i++;
        }
        empty = false;
        if (!ok) return `"${buf.toString('utf8', ts, i)}" is not an integer`;
        if (count < 64) vals[count] = v;
        count++;
      }
    }
    if (empty) return 'empty: no numbers';
    if (count !== PICK) return `wrong count: expected 7 numbers, found ${count}`;
  }
  for (let k = 0; k < PICK; k++) {
    const v = vals[k]!;
    if (v < 1 || v > pool) return `out of pool: ${v} is not in 1..${pool}`;
  }
  // insertion sort of 7 + duplicate check
  for (let k = 1; k < PICK; k++) {
    const v = vals[k]!;
    let j = k - 1;
    while (j >= 0 && vals[j]! > v) {
      vals[j + 1] = vals[j]!;
      j--;
    }
    vals[j + 1] = v;
  }
  for (let k = 1; k < PICK; k++) {
    if (vals[k] === vals[k - 1]) return `duplicate: ${vals[k]} appears more than once`;
  }
  for (let k = 0; k < PICK; k++) out[k] = vals[k]!;
  return null;
}
const tmpVals = new Float64Array(64);
