/**
 * What a rerun costs (issue #25: at most 1.5× the engine's warm build + scan of the same run), a
 * script that prints figures, not a test:
 *   npx tsx apps/power7-api/bench/rerun.bench.ts [rows=1000000] [pool=35]
 * The app runs in this process (as the tests build it); a file is uploaded once, then run again with
 * other payouts and budgets over the same pool: each rerun is timed from its request until the status
 * says done (polled every 10 ms), against the engine's warm build + scan of the same parameters.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { engineYardstick, median } from '@pa/power7-engine/bench/yardstick';
import { SESSION_FILES } from '@pa/power7-engine/session-store';
import {
  buildTestApp,
  cleanup,
  customerCsv,
  DEFAULT_FIELDS,
  makeKeys,
  multipart,
  tempDir,
} from '../test/helper';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const POOL = Number(process.argv[3] ?? 35);
const RUNS = [
  { budget: 60_000, payouts: [1, 5, 50, 500, 5_000] },
  { budget: 90_000, payouts: [2, 5, 60, 600, 8_000] },
  { budget: 40_000, payouts: [1, 4, 40, 800, 10_000] },
];

const dir = await tempDir('p7-rerun-bench-');
try {
  const keys = await makeKeys(dir);
  const app = await buildTestApp({
    DATA_DIR: join(dir, 'data'),
    JWKS_FILE: keys.file,
    UPLOAD_MAX_BYTES: String(1 << 30),
    STORAGE_QUOTA_MB: '100000',
    WORKER_THREADS: '2',
  });
  const headers = { authorization: `Bearer ${await keys.sign()}` };
  const until = async (id: string) => {
    for (;;) {
      const res = await app.inject({
        url: `/api/power7/processing-status/?session=${id}`,
        headers,
      });
      const data = res.json().data;
      if (data.status === 'done') return data;
      if (data.status === 'failed') throw new Error(JSON.stringify(data.error));
      await new Promise((done) => setTimeout(done, 10));
    }
  };
  const csv = customerCsv(ROWS, POOL, 25);
  const file = join(dir, 'customers.csv');
  await writeFile(file, csv);
  const fields = { ...DEFAULT_FIELDS, pool_size: String(POOL) };
  const body = multipart(fields, { name: 'customers.csv', content: csv });
  const up = await app.inject({
    method: 'POST',
    url: '/api/upload/',
    payload: body.payload,
    headers: { ...body.headers, ...headers },
  });
  const source = (await until(up.json().data._id))._id as string;
  // a job that read a file says how long the read took; the analysis records whether it took the
  // count tables from the folder
  let reads = 0;
  let reused = 0;
  console.log(`rows ${ROWS}, pool ${POOL}`);
  console.log('budget  rerun ms (request → done)  job ms  engine warm build+scan ms  ratio');
  const ratios: number[] = [];
  for (const run of RUNS) {
    const payload = {
      budget_type: 'fixed',
      budget: run.budget,
      pool_size: POOL,
      ...Object.fromEntries(run.payouts.map((p, i) => [`payout_${i + 3}`, p])),
    };
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: `/api/power7/sessions/${source}/rerun/`,
      headers,
      payload,
    });
    const done = await until(res.json().data._id);
    const rerunMs = performance.now() - started;
    if (done.timings.readMs !== undefined) reads++;
    const analysis = JSON.parse(
      await readFile(
        join(app.power7.sessions.memory.dirOf(done._id), SESSION_FILES.analysis),
        'utf8',
      ),
    ) as { timings: { countsReused?: boolean } };
    if (analysis.timings.countsReused) reused++;
    const engineMs = await engineYardstick(file, {
      pool: POOL,
      payouts: {
        3: run.payouts[0]!,
        4: run.payouts[1]!,
        5: run.payouts[2]!,
        6: run.payouts[3]!,
        7: run.payouts[4]!,
      },
      budget: { type: 'fixed', budget: run.budget },
      runs: 3,
      keepWorkers: true,
    });
    ratios.push(rerunMs / engineMs);
    console.log(JSON.stringify(done.timings));
    console.log(
      `${run.budget}  ${rerunMs.toFixed(0)}  ${done.timings.totalMs}  ${engineMs.toFixed(0)}  ${(rerunMs / engineMs).toFixed(2)}`,
    );
  }
  console.log(`files read by the reruns: ${reads}`);
  console.log(`reruns that took their source's count tables: ${reused}`);
  console.log(`median ratio ${median(ratios).toFixed(2)} (target ≤ 1.5)`);
  await app.close();
} finally {
  await cleanup(dir);
}
