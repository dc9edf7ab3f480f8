import { invariant } from './errors';
import { PICK, ticketRank } from './model';
import type { SharedBufferLease } from './shared-buffers';
import type { DistinctPiece } from './table-types';

/**
 * The distinct tickets as ascending colex ranks with their multiplicities (duplicates collapse).
 * Ranks are < C(49,7) < 2^27, so an LSD radix sort in two passes of 14 and 13 bits orders them.
 */
export function distinctTickets(
  tickets: Uint8Array,
  count: number,
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const ranks = new Uint32Array(count);
  for (let t = 0, p = 0; t < count; t++, p += PICK) ranks[t] = ticketRank(tickets, p);
  radixSort27(ranks);
  return distinctOfSorted(ranks, buffers);
}

/**
 * The pieces that de-duplicate the sorted runs ranks[bounds[i], bounds[i+1]) on the workers, one per
 * run, split at values of the first run (the runs hold random shares of the tickets, so the pieces
 * come out about even).
 */
export function distinctPieces(
  ranks: Uint32Array,
  bounds: number[],
  buffers: SharedBufferLease,
): DistinctPiece[] {
  const parts = bounds.length - 1;
  const first = ranks.subarray(bounds[0]!, bounds[1]!);
  const cuts = [0];
  for (let j = 1; j < parts; j++)
    cuts.push(first.length > 0 ? first[Math.floor((first.length * j) / parts)]! : 0);
  cuts.push(2 ** 27);
  const outRanks = buffers.u32(ranks.length, false);
  const outMult = buffers.u32(ranks.length, false);
  const found = buffers.u32(2 * parts);
  return Array.from({ length: parts }, (_, piece) => {
    let at = 0;
    for (let i = 0; i < parts; i++)
      at += firstTicketAtLeast(ranks.subarray(bounds[i]!, bounds[i + 1]!), cuts[piece]!);
    return {
      op: 'distinct' as const,
      ranks,
      bounds,
      lo: cuts[piece]!,
      hi: cuts[piece + 1]!,
      at,
      outRanks,
      outMult,
      found,
      piece,
    };
  });
}

export function distinctPiece(op: DistinctPiece): void {
  const { ranks, bounds, lo, hi, at, outRanks, outMult } = op;
  let merged: Uint32Array = new Uint32Array(0);
  for (let i = 0; i + 1 < bounds.length; i++) {
    const run = ranks.subarray(bounds[i]!, bounds[i + 1]!);
    const inRange = run.subarray(firstTicketAtLeast(run, lo), firstTicketAtLeast(run, hi));
    merged = i === 0 ? inRange : mergeTwo(merged, inRange);
  }
  let d = at - 1;
  let previous = -1;
  let most = 0;
  for (let k = 0; k < merged.length; k++) {
    const v = merged[k]!;
    if (v !== previous) {
      outRanks[++d] = v;
      outMult[d] = 0;
      previous = v;
    }
    const m = ++outMult[d]!;
    if (m > most) most = m;
  }
  op.found[2 * op.piece] = d + 1 - at;
  op.found[2 * op.piece + 1] = most;
}

/** The distinct tickets from the pieces' outputs, in value order. */
export function joinDistinctPieces(
  pieces: DistinctPiece[],
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const found = pieces[0]!.found;
  let distinct = 0;
  let maxC7 = 0;
  for (const { piece } of pieces) {
    distinct += found[2 * piece]!;
    maxC7 = Math.max(maxC7, found[2 * piece + 1]!);
  }
  const ticketRanks = buffers.u32(distinct, false);
  const ticketMult = buffers.u32(distinct, false);
  let written = 0;
  for (const { at, outRanks, outMult, piece } of pieces) {
    const n = found[2 * piece]!;
    ticketRanks.set(outRanks.subarray(at, at + n), written);
    ticketMult.set(outMult.subarray(at, at + n), written);
    written += n;
  }
  return { ticketRanks, ticketMult, maxC7 };
}

function mergeTwo(x: Uint32Array, y: Uint32Array): Uint32Array {
  const out = new Uint32Array(x.length + y.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < x.length && j < y.length) out[k++] = x[i]! <= y[j]! ? x[i++]! : y[j++]!;
  while (i < x.length) out[k++] = x[i++]!;
  while (j < y.length) out[k++] = y[j++]!;
  return out;
}

/** The distinct ranks of an ascending array, with their multiplicities and the largest of them. */
export function distinctOfSorted(
  ranks: Uint32Array,
  buffers: SharedBufferLease,
): { ticketRanks: Uint32Array; ticketMult: Uint32Array; maxC7: number } {
  const count = ranks.length;
  let distinct = 0;
  for (let i = 0; i < count; i++) if (i === 0 || ranks[i] !== ranks[i - 1]) distinct++;
  const ticketRanks = buffers.u32(distinct, false);
  const ticketMult = buffers.u32(distinct);
  let maxC7 = 0;
  for (let i = 0, d = -1; i < count; i++) {
    if (i === 0 || ranks[i] !== ranks[i - 1]) {
      d++;
      ticketRanks[d] = ranks[i]!;
    }
    ticketMult[d]!++;
    if (ticketMult[d]! > maxC7) maxC7 = ticketMult[d]!;
  }
  return { ticketRanks, ticketMult, maxC7 };
}

/** Index of the first distinct ticket whose colex rank is ≥ `rank` (binary search, ranks ascending). */
export function firstTicketAtLeast(ticketRanks: Uint32Array, rank: number): number {
  let l = 0;
  let h = ticketRanks.length;
  while (l < h) {
    const mid = (l + h) >>> 1;
    if (ticketRanks[mid]! < rank) l = mid + 1;
    else h = mid;
  }
  return l;
}

/** Sorts values < 2^27 ascending in place (two stable counting passes). */
export function radixSort27(keys: Uint32Array): void {
  const n = keys.length;
  const low = new Uint32Array(1 << 14);
  const high = new Uint32Array(1 << 13);
  let all = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    all |= k;
    low[k & 0x3fff]!++;
    high[(k >>> 14) & 0x1fff]!++;
  }
  invariant(all >>> 27 === 0, 'radix sort key out of range');
  for (let i = 0, s = 0; i < low.length; i++) {
    const c = low[i]!;
    low[i] = s;
    s += c;
  }
  for (let i = 0, s = 0; i < high.length; i++) {
    const c = high[i]!;
    high[i] = s;
    s += c;
  }
  const tmp = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const k = keys[i]!;
    tmp[low[k & 0x3fff]!++] = k;
  }
  for (let i = 0; i < n; i++) {
    const k = tmp[i]!;
    keys[high[k >>> 14]!++] = k;
  }
}
