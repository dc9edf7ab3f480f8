import { readFile, rename, rm } from 'node:fs/promises';
import { analyzeTickets, type AnalysisResult } from '../analysis/analyze';
import type { DrawRow, QualifyingTable } from '../core/draw-query';
import { EngineError, throwIfAborted } from '../core/errors';
import { formatCombo, numbersOfRank, PICK } from '../core/model';
import {
  countTableParts,
  fileIn,
  openPieceFile,
  readCountTables,
  readJson,
  syncDir,
  writeSynced,
  type StoredAnalysis,
} from './session-files';
import type { AnalysisInput, AnalysisSummary, IngestSummary } from './session-types';
import { DistributionQuery, indexColumns, memoryBins, usedBins } from '../analysis/distribution';
import { quantiles } from '../analysis/distribution-insight';
import { drawBytes, type GroupedColumn } from '../core/distribution-group';

/**
 * Runs the exhaustive analysis of an ingested session and writes `qualifying.bin` and `analysis.json`
 * atomically (temp file, fsync, rename; `analysis.json` last, so its presence means "done"; it is
 * removed first, so a crash mid-run leaves the session "ingested" and the run can simply be repeated).
 * With `ingested` (from `readUpload`), the tickets come from memory while the session files are still
 * being written; it settles only after they are. Throws `EngineError` (INVALID_PARAMS,
 * PAYOUT_TOO_LARGE, SESSION_NOT_FOUND, CANCELLED), or what writing the session files threw.
 * ~1 s at P=35 / 1M tickets on 2 cores.
 */
export async function runAnalysis(input: AnalysisInput): Promise<AnalysisSummary> {
  const saving = input.ingested?.saved;
  try {
    return await analyse(input);
  } finally {
    // the caller's next step (a failure report, a removal of the folder) finds no write under way
    await saving?.catch(() => {});
  }
}

/** The files an analysis writes (each first as a temp file), `analysis.json` last. */
const RESULT_FILES = [
  'distribution',
  'qualifying',
  'distributionIndex',
  'counts',
  'analysis',
] as const;
type ResultFile = (typeof RESULT_FILES)[number];

async function analyse(input: AnalysisInput): Promise<AnalysisSummary> {
  const dir = input.sessionDir;
  const ingested = input.ingested;
  const ingest = await ingestOf(input);
  const { onProgress, signal } = input;
  const stamp = `tmp-${process.pid}-${Date.now()}`;
  const tmp = (name: ResultFile) => `${fileIn(dir, name)}.${stamp}`;
  const [, tickets, distributionFile, countsFile] = await Promise.all([
    rm(fileIn(dir, 'analysis'), { force: true }),
    ingested?.tickets ?? readFile(fileIn(dir, 'tickets')).then((b) => new Uint8Array(b)),
    // the draws grouped by bin go to disk as the workers group them, right after the scan
    openPieceFile(tmp('distribution')),
    // the count tables too, while the scan runs, unless this folder's (a rerun's: its source's) fit
    openPieceFile(tmp('counts')),
  ]);
  const count = tickets.length / PICK;
  let countsReused = false;
  // the grouped draws, kept until the quantiles are read from them
  const grouped: GroupedColumn[] = [];
  // each file is written and fsynced as soon as its content is known
  const writes: Promise<unknown>[] = [];
  const settle = async () => {
    const all = await Promise.allSettled(writes.splice(0));
    for (const w of all) if (w.status === 'rejected') throw w.reason;
  };
  let res: Awaited<ReturnType<typeof analyzeTickets>>;
  let widths: number[] = [];
  let summary: StoredAnalysis;
  const started = performance.now();
  try {
    res = await analyzeTickets(tickets, count, {
      pool: ingest.pool,
      payouts: input.payouts,
      budget: input.budget,
      ...(input.workers !== undefined ? { workers: input.workers } : {}),
      ...(ingested?.counted ? { counted: ingested.counted } : {}),
      ...(signal ? { signal } : {}),
      onProgress: (p) =>
        onProgress?.({
          phase: p.phase,
          fraction: p.fraction * 0.95,
          counts: { drawsEvaluated: p.drawsEvaluated },
        }),
      onDistributionPiece: (piece) => {
        grouped.push(piece);
        return distributionFile.write(piece);
      },
      loadCounts: async (take) => {
        const counts = await readCountTables(fileIn(dir, 'counts'), ingest.pool, count, take);
        countsReused = counts !== null;
        return counts;
      },
      onCounts: async (counts) => {
        for (const part of countTableParts(counts, count)) await countsFile.write(part);
        writes.push(countsFile.finish());
      },
      // the qualifying draws go to disk while the workers group the distribution
      onScanned: (table) => {
        const qualifying = qualifyingColumns(table);
        widths = qualifying.widths;
        writes.push(writeSynced(tmp('qualifying'), qualifying.columns));
      },
    });
    throwIfAborted(signal);
    onProgress?.({
      phase: 'writing',
      fraction: 0.95,
      counts: { drawsEvaluated: res.draws, drawsQualified: res.qualified },
    });
    const { index } = res.distribution;
    if (countsReused) writes.push(countsFile.discard());
    writes.push(
      distributionFile.finish(),
      writeSynced(tmp('distributionIndex'), indexColumns(index, usedBins(index.counts))),
    );
    // meanwhile a few bins of the draws just grouped, from memory (the thread pool is syncing)
    const bytes = drawBytes(index.shift);
    const quantilesOfTotals = await quantiles(
      new DistributionQuery(index, memoryBins(grouped, index, bytes)),
    );
    grouped.length = 0;
    summary = storedAnalysis(input, ingest, count, res, widths, quantilesOfTotals, countsReused);
    // from the scan's end until `analysis.json` is written (the files may still be syncing then)
    summary.timings.saveMs = Math.round(
      performance.now() - started - res.timings.buildMs - res.timings.scanMs,
    );
    writes.push(writeSynced(tmp('analysis'), [JSON.stringify(summary)]));
    await settle();
  } catch (err) {
    // all settled before a failure removes the files
    await Promise.allSettled(writes);
    await distributionFile.discard();
    await countsFile.discard();
    await Promise.all(RESULT_FILES.map((name) => rm(tmp(name), { force: true })));
    throw err;
  }
  await moveIntoPlace(dir, tmp, countsReused, ingested?.saved);
  onProgress?.({
    phase: 'done',
    fraction: 1,
    counts: { drawsEvaluated: res.draws, drawsQualified: res.qualified },
  });
  const { storage: _storage, ...pub } = summary;
  void _storage;
  // the returned timings count until every file is durable
  const { buildMs, scanMs } = res.timings;
  pub.timings = {
    ...pub.timings,
    saveMs: Math.round(performance.now() - started - buildMs - scanMs),
  };
  return pub;
}

/** The session's ingest summary (handed over, or read from the folder), checked against the pool asked for. */
async function ingestOf(input: AnalysisInput): Promise<IngestSummary> {
  const ingest =
    input.ingested?.summary ?? (await readJson<IngestSummary>(fileIn(input.sessionDir, 'ingest')));
  if (!ingest) throw new EngineError('SESSION_NOT_FOUND', 'No uploaded file in this session.');
  if (input.pool !== undefined && input.pool !== ingest.pool) {
    throw new EngineError(
      'INVALID_PARAMS',
      `The session was read with pool ${ingest.pool}; upload again to use pool ${input.pool}.`,
      'pool',
    );
  }
  return ingest;
}

/**
 * The temp files renamed into place (the count tables only when written here), then `analysis.json`
 * once the upload's own files are `saved`: "analysed" is never on disk before "ingested", nor before
 * the results.
 */
async function moveIntoPlace(
  dir: string,
  tmp: (name: ResultFile) => string,
  countsReused: boolean,
  saved: Promise<unknown> | undefined,
): Promise<void> {
  const written = RESULT_FILES.filter(
    (name) => name !== 'analysis' && (name !== 'counts' || !countsReused),
  );
  await Promise.all(written.map((name) => rename(tmp(name), fileIn(dir, name))));
  await syncDir(dir);
  try {
    await saved;
  } catch (err) {
    await rm(tmp('analysis'), { force: true });
    throw err;
  }
  await rename(tmp('analysis'), fileIn(dir, 'analysis'));
  await syncDir(dir);
}

/** `qualifying.bin`'s columns: the ranks, then each match type's winners, every column 4-byte aligned. */
function qualifyingColumns(table: QualifyingTable): {
  columns: ArrayBufferView[];
  widths: number[];
} {
  const widths = table.chunks[0]?.counts.map((c) => c.BYTES_PER_ELEMENT) ?? [4, 4, 4, 4, 4];
  const columns: ArrayBufferView[] = [];
  for (const ch of table.chunks) columns.push(ch.ranks);
  for (let m = 0; m < 5; m++) {
    for (const ch of table.chunks) columns.push(ch.counts[m]!);
    const bytes = table.length * widths[m]!;
    if (bytes % 4) columns.push(new Uint8Array(4 - (bytes % 4)));
  }
  return { columns, widths };
}

/** The content of `analysis.json`. */
function storedAnalysis(
  input: AnalysisInput,
  ingest: IngestSummary,
  count: number,
  res: AnalysisResult,
  widths: number[],
  quantilesOfTotals: StoredAnalysis['stats']['quantiles'],
  countsReused: boolean,
): StoredAnalysis {
  const { index } = res.distribution;
  const worstNumbers = numbersOfRank(res.stats.worstRank);
  const wc = res.stats.worstWinners;
  const worstDraw: DrawRow = {
    combo: formatCombo(worstNumbers),
    numbers: worstNumbers,
    winners: { 3: wc[3]!, 4: wc[4]!, 5: wc[5]!, 6: wc[6]!, 7: wc[7]! },
    totalPayout: res.stats.max,
  };
  return {
    pool: ingest.pool,
    tickets: count,
    rejectedRows: ingest.rejected,
    payouts: { ...input.payouts },
    budget: input.budget,
    draws: res.draws,
    qualified: res.qualified,
    stats: {
      draws: res.draws,
      min: res.stats.min,
      mean: res.stats.mean,
      max: res.stats.max,
      worstDraw,
      histogram: res.stats.histogram,
      curve: res.stats.curve,
      quantiles: quantilesOfTotals,
      jackpotDraws: res.jackpotDraws,
    },
    timings: { ...res.timings, saveMs: 0, countsReused },
    finishedAt: new Date().toISOString(),
    storage: {
      qualified: res.qualified,
      widths,
      unit: res.weights.unit,
      w: Array.from(res.weights.w),
      distribution: {
        shift: index.shift,
        bins: usedBins(index.counts),
        bytes: drawBytes(index.shift),
      },
    },
  };
}
