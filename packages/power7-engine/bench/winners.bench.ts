/**
 * Winners downloads in one process (issue #27), `npx tsx packages/power7-engine/bench/winners.bench.ts
 * [tickets=1000000] [dir]`: a P=35 session in the bench service's file shape (kept in `dir`, made once),
 * opened as a service opens it; then, on the winners threads, without HTTP:
 * - all winners of one draw (bytes, median of 5);
 * - 20 concurrent readers of one draw's 6-match CSV for 4 s (shared walk);
 * - 20 concurrent readers of 6-match CSVs of 20 different draws for 4 s.
 * Meant for profiles (`--cpu-prof`) and side-by-side runs of two trees; prints the load average.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ingestFile, openSession, runAnalysis } from '../src/store/session-store';
import { closeWinnersThreads } from '../src/parallel/winners-pool';
import { mulberry32 as rng } from './generate';

const TICKETS = Number(process.argv[2] ?? 1_000_000);
const DIR = process.argv[3] ?? join(tmpdir(), 'p7-winners-bench');
const POOL = 35;
const CLIENTS = 20;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);

async function writeCsv(file: string, rows: number) {
  const out = createWriteStream(file);
  const next = rng(100);
  out.write('customer_id,name,phone,n1,n2,n3,n4,n5,n6,n7\n');
  let chunk = '';
  for (let i = 0; i < rows; i++) {
    const picked = new Set<number>();
    while (picked.size < 7) picked.add(1 + Math.floor(next() * POOL));
    const ticket = [...picked].sort((a, b) => a - b);
    chunk += `C${i + 1},Customer ${i + 1},+1555${1_000_000 + i},${ticket.join(',')}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
}

async function sessionDir(): Promise<string> {
  const dir = join(DIR, `session-${TICKETS}`);
  if (existsSync(join(dir, 'analysis.json'))) return dir;
  const file = join(DIR, `customers-${TICKETS}.csv`);
  await writeCsv(file, TICKETS);
  await ingestFile({ sourcePath: file, sessionDir: dir, pool: POOL });
  await runAnalysis({
    sessionDir: dir,
    payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 },
    budget: { type: 'fixed', budget: Math.round((270_000 * TICKETS) / 1e6) },
  });
  return dir;
}

async function drain(chunks: AsyncIterable<Uint8Array>): Promise<number> {
  let bytes = 0;
  for await (const c of chunks) bytes += c.byteLength;
  return bytes;
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)] ?? NaN;

async function main() {
  const dir = await sessionDir();
  const session = await openSession(dir);
  const combos = session.filter({ pageSize: CLIENTS }).items.map((d) => d.combo);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(
    `${TICKETS.toLocaleString('en')} tickets, ${new Date().toISOString()}, load ${load()}`,
  );
  const mode = process.env.BENCH_ONLY;

  if (!mode || mode === 'all') {
    const runs: number[] = [];
    let bytes = 0;
    for (let r = 0; r < 6; r++) {
      const started = performance.now();
      bytes = await drain(session.winnersCsvBytes(combos[1]!, 'all'));
      if (r > 0) runs.push(performance.now() - started);
    }
    const ms = quantile(runs, 0.5);
    console.log(
      `all winners: median ${ms.toFixed(0)} ms (${runs.map((x) => x.toFixed(0)).join(' ')}), ` +
        `${(bytes / 1e6).toFixed(1)} MB, ${(bytes / 1e3 / ms).toFixed(1)} MB/s`,
    );
  }

  for (const [name, comboOf] of [
    ['same draw', () => combos[0]!],
    ['different draws', (c: number, n: number) => combos[(c + n) % combos.length]!],
  ] as const) {
    if (mode && mode !== (name === 'same draw' ? 'same' : 'many')) continue;
    const until = performance.now() + SECONDS * 1000;
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; performance.now() < until; n++) {
          const started = performance.now();
          await drain(session.winnersCsvBytes(comboOf(client, n), 6));
          times.push(performance.now() - started);
        }
      }),
    );
    console.log(
      `6-match, ${name}, ${CLIENTS} readers: ${times.length} done, ` +
        `p50 ${quantile(times, 0.5).toFixed(0)} ms, p95 ${quantile(times, 0.95).toFixed(0)} ms`,
    );
  }
  console.log(`load after ${load()}`);
  session.close();
  await closeWinnersThreads();
}

await main();
