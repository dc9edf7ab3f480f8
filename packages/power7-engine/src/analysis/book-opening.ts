import type { SeenFrom, TotalsSeen } from '../core/book-watch';
import { PICK, type Payouts } from '../core/model';
import { tableBufferPool } from '../core/shared-buffers';
import { countTables, foldTables, splitTops } from '../core/tables';
import type { LessOp } from '../core/totals-less';
import { deriveWeights } from '../core/weights';
import { withBuildPlan } from '../parallel/workers';

/**
 * A live book opened from its session (issue #41 part 4, ADR 029): every draw's total with the
 * session's tickets (`totals`, in the unit of the book's payouts) less its total with the tickets the
 * limit refused, and what the book's watch is chosen from (`TotalsSeen`, from `floor`, at most `most`
 * draws listed). The refused tickets' tables are built as for an analysis; then one pass over the
 * draws, split over the workers, writes each difference (`core/totals-less.ts`) where an analysis
 * would scan with its statistics and a second pass would subtract.
 */
export async function totalsLessRefused(
  game: { pool: number; payouts: Payouts; workers?: number },
  totals: Float64Array,
  refused: Uint8Array,
  from: SeenFrom,
): Promise<{ totals: Float64Array; seen: TotalsSeen }> {
  const count = refused.length / PICK;
  const weights = deriveWeights(game.payouts, { type: 'fixed', budget: 0 }, count);
  return withBuildPlan(game.workers, tableBufferPool, undefined, async (plan, buffers) => {
    const counts = await countTables(refused, count, game.pool, plan, buffers);
    const tables = await foldTables(counts, weights, plan, buffers);
    // the workers read the session's totals where they lie (an analysis' own are shared)
    const all = totals.buffer instanceof SharedArrayBuffer ? totals : sharedCopy(totals);
    const into = new Float64Array(new SharedArrayBuffer(totals.length * 8));
    const split = splitTops(game.pool, Math.max(1, plan.parts));
    const seen = new Float64Array(new SharedArrayBuffer(16 * split.length));
    const listed = new Uint32Array(new SharedArrayBuffer(4 * from.most * split.length));
    const ops: LessOp[] = split.map((tops, part) => ({
      op: 'less',
      y6: tables.y6,
      ticketRanks: tables.ticketRanks,
      ticketMult: tables.ticketMult,
      alpha7: weights.alpha[7]!,
      from: all,
      into,
      tops,
      floor: from.floor,
      seen,
      ranks: listed.subarray(part * from.most, (part + 1) * from.most),
      part,
    }));
    await plan.run(ops);
    return { totals: into, seen: joinSeen(ops, seen, from) };
  });
}

function sharedCopy(of: Float64Array): Float64Array {
  const copy = new Float64Array(new SharedArrayBuffer(of.byteLength));
  copy.set(of);
  return copy;
}

/** The parts' finds as one `TotalsSeen`: the largest total, and every listed rank ascending. */
function joinSeen(ops: LessOp[], seen: Float64Array, from: SeenFrom): TotalsSeen {
  let top = 0;
  let count = 0;
  for (let part = 0; part < ops.length; part++) {
    top = Math.max(top, seen[2 * part]!);
    count += seen[2 * part + 1]!;
  }
  const ranks = new Uint32Array(from.most);
  // listed only when they all fit: a longer list is never read (`TotalsSeen`)
  if (count <= from.most) {
    let at = 0;
    for (let part = 0; part < ops.length; part++) {
      const found = seen[2 * part + 1]!;
      ranks.set(ops[part]!.ranks.subarray(0, found), at);
      at += found;
    }
    ranks.subarray(0, count).sort();
  }
  return { top, floor: from.floor, ranks, count };
}
