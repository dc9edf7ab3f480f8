import { drawsCsv, exportDraws, type QueryContext } from '../core/draw-query';
import { EngineError } from '../core/errors';
import { drawCount, PICK } from '../core/model';
import { exposureBase, type ExposureBase, type ExposureInput } from '../analysis/exposure';
import type { CountColumn } from '../core/scan';
import { RowReader } from '../analysis/winners';
import {
  fileIn,
  readAligned,
  readCountTables,
  readJson,
  type StoredAnalysis,
} from './session-files';
import { customerColumns, SessionExposures } from './session-exposure';
import { SessionFilters } from './session-filters';
import { answerInsight, openDistribution } from './session-insight';
import { SessionLiability } from './session-liability';
import type {
  AnalysisSummary,
  IngestSummary,
  NoValidRowsSummary,
  OpenSession,
  SessionStatus,
} from './session-types';
import { SessionWinners } from './session-winners';

/** What a session folder holds, from its small JSON files only. Never throws for a missing folder. */
export async function readSessionStatus(sessionDir: string): Promise<SessionStatus> {
  const ingest = await readJson<IngestSummary>(fileIn(sessionDir, 'ingest'));
  const stored = ingest ? await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis')) : null;
  let analysis: AnalysisSummary | null = null;
  if (stored) {
    const { storage: _s, ...pub } = stored;
    void _s;
    analysis = pub;
  }
  const noValidRows = ingest
    ? null
    : await readJson<NoValidRowsSummary>(fileIn(sessionDir, 'noValidRows'));
  return {
    state: analysis ? 'analysed' : ingest ? 'ingested' : 'missing',
    ingest,
    analysis,
    noValidRows,
  };
}

/** Draws up to which an open session keeps every draw's total for exposure and limits (8 B a draw). */
const KEEP_BASE_DRAWS = 40_000_000;

/**
 * Loads a finished session (tickets + qualifying draws) for queries, without re-running anything.
 * Throws SESSION_NOT_FOUND or SESSION_NOT_READY (no finished analysis). Memory ≈ 15 B per ticket
 * + 12–24 B per qualifying draw; load time ≈ reading those files.
 */
export async function openSession(sessionDir: string): Promise<OpenSession> {
  const status = await readSessionStatus(sessionDir);
  if (!status.ingest) throw new EngineError('SESSION_NOT_FOUND', 'No such session.');
  const stored = await readJson<StoredAnalysis>(fileIn(sessionDir, 'analysis'));
  if (!stored || !status.analysis) {
    throw new EngineError('SESSION_NOT_READY', 'The analysis of this session has not finished.');
  }
  const ingest = status.ingest;
  const analysis = status.analysis;
  const { tickets, count, offsets, lines, lengths } = await readTicketFiles(sessionDir);
  const n = stored.storage.qualified;
  const ctx = await readQualifying(sessionDir, stored, ingest.pool);
  const ensureOpen = () => {
    if (closed) throw new Error('session is closed');
  };
  const filters = new SessionFilters(ctx, { qualified: n, stats: analysis.stats }, ensureOpen);
  const rows = new RowReader(
    fileIn(sessionDir, 'rows'),
    ingest.delimiter.charCodeAt(0),
    offsets,
    lengths,
  );
  const header = ingest.columns;
  const winners = new SessionWinners(
    {
      sessionDir,
      ingest,
      analysis,
      tickets,
      count,
      offsets,
      lines,
      lengths,
      rowsPath: fileIn(sessionDir, 'rows'),
      rows,
    },
    ensureOpen,
  );
  const exposureInput = {
    tickets,
    count,
    pool: ingest.pool,
    payouts: analysis.payouts,
    budget: analysis.budget,
    loadCounts: (take: (length: number) => Uint32Array) =>
      readCountTables(fileIn(sessionDir, 'counts'), ingest.pool, count, take),
  };
  const base = keptExposureBase(exposureInput, drawCount(ingest.pool) <= KEEP_BASE_DRAWS);
  const exposures = new SessionExposures({
    ...exposureInput,
    base: base.of,
    customers: () => customerColumns(rows, header, ingest),
  });
  const liability = new SessionLiability(exposureInput, base.of, rows, header, lines);
  let distribution: ReturnType<typeof openDistribution> | null = null;
  let closed = false;

  return {
    ingest,
    analysis,
    filter: (query) => filters.here(query),
    filterAsync: (query, signal) => filters.answer(query, signal),
    winners: (combo, matchType, page, pageSize) => winners.page(combo, matchType, page, pageSize),
    winnersCsv: (combo, matchType) => winners.csv(combo, matchType),
    winnersCsvBytes: (combo, matchType) => winners.csvBytes(combo, matchType),
    drawsCsv(query) {
      ensureOpen();
      // the filters are checked here, before the first chunk (a bad one throws INVALID_PARAMS)
      return drawsCsv(exportDraws(ctx, query));
    },
    async insight(query) {
      ensureOpen();
      distribution ??= openDistribution(sessionDir, stored);
      // a failed open (an old session) is not kept: the next question tries again
      void distribution.catch(() => (distribution = null));
      return answerInsight(await distribution, analysis, query);
    },
    exposure: (query) => {
      ensureOpen();
      return exposures.answer(query);
    },
    exposureCsv: (query) => {
      ensureOpen();
      return exposures.csv(query);
    },
    limit: (limit) => {
      ensureOpen();
      return liability.limit(limit);
    },
    limitJob: (limit) => {
      ensureOpen();
      return liability.limitJob(limit);
    },
    acceptedMask: (limit, mode) => {
      ensureOpen();
      return liability.acceptedMask(limit, mode);
    },
    bookSeed: (limit) => {
      ensureOpen();
      return liability.bookSeed(limit);
    },
    refusedCsv: (limit) => {
      ensureOpen();
      return liability.refusedCsv(limit);
    },
    cap: (limit) => {
      ensureOpen();
      return liability.cap(limit);
    },
    close() {
      closed = true;
      exposures.clear();
      liability.clear();
      base.clear();
      winners.clear();
      filters.clear();
      distribution = null;
    },
  };
}

/**
 * The tickets (`tickets.bin`) and their row index (`rows.idx`: offset, line and length of each
 * ticket's row), in shared memory: the winners threads read them without a copy.
 */
async function readTicketFiles(sessionDir: string) {
  const tickets = new Uint8Array(await readAligned(fileIn(sessionDir, 'tickets'), true));
  const count = tickets.length / PICK;
  const idx = await readAligned(fileIn(sessionDir, 'rowIndex'), true);
  return {
    tickets,
    count,
    offsets: new Float64Array(idx, 0, count),
    lines: new Uint32Array(idx, count * 8, count),
    lengths: new Uint32Array(idx, count * 12, count),
  };
}

/**
 * Every draw's total and the distinct combinations (`exposureBase`): what every exposure line and
 * liability limit starts from, kept while the session is open when `keep` (unless the draws' totals
 * alone pass 320 MB, P ≥ 45); `clear` drops it.
 */
function keptExposureBase(input: ExposureInput, keep: boolean) {
  let base: Promise<ExposureBase> | null = null;
  return {
    of: (): Promise<ExposureBase> => {
      const made = base ?? exposureBase(input);
      if (keep && !base) {
        base = made;
        made.catch(() => base === made && (base = null));
      }
      return made;
    },
    clear: () => void (base = null),
  };
}

/**
 * The qualifying draws of `qualifying.bin` as a query table: colex ranks, then the winners of each
 * match type in the stored widths, in shared memory (a winners thread builds the filter index from
 * it without a copy).
 */
async function readQualifying(
  sessionDir: string,
  stored: StoredAnalysis,
  pool: number,
): Promise<QueryContext> {
  const q = await readAligned(fileIn(sessionDir, 'qualifying'), true);
  const n = stored.storage.qualified;
  const ranks = new Uint32Array(q, 0, n);
  let off = n * 4;
  const counts: CountColumn[] = [];
  for (const width of stored.storage.widths) {
    counts.push(
      width === 1
        ? new Uint8Array(q, off, n)
        : width === 2
          ? new Uint16Array(q, off, n)
          : new Uint32Array(q, off, n),
    );
    off += n * width;
    if (off % 4) off += 4 - (off % 4);
  }
  return {
    pool,
    table: { length: n, chunks: n ? [{ length: n, ranks, counts }] : [] },
    w: stored.storage.w,
    unit: stored.storage.unit,
  };
}
