import { analyzeTickets, closeScanWorkers } from './packages/power7-engine/src/analyze';
import { readCustomerFile } from './packages/power7-engine/src/customer-file';
import { queryDraws } from './packages/power7-engine/src/draw-query';
const f = await readCustomerFile('/tmp/power7-cold-p35-t1000000.csv', { pool: 35, keepRejected: false });
const res = await analyzeTickets(f.tickets, f.count, { pool: 35, payouts: { 3: 1, 4: 5, 5: 50, 6: 500, 7: 5000 }, budget: { type: 'fixed', budget: 270000 }, workers: 2 });
console.log('widths', res.table.chunks[0]!.counts.map((c) => c.constructor.name).join(','), 'chunks', res.table.chunks.length, 'len', res.table.length);
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  queryDraws({ pool: 35, table: res.table, w: res.weights.w, unit: res.weights.unit }, { pageSize: 20, sort: { by: 'totalPayout', direction: 'desc' } });
  console.log('top20', (performance.now() - t).toFixed(0), 'ms');
}
await closeScanWorkers();
