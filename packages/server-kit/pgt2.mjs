import { PGlite } from '@electric-sql/pglite';
const cu = (c) => ((c.user + c.system) / 1e6).toFixed(2);
let t = performance.now(); let c0 = process.cpuUsage();
const db = await PGlite.create(); await db.query('select 1');
console.log('create mem', (performance.now() - t).toFixed(0), 'ms cpu', cu(process.cpuUsage(c0)));
for (let i = 0; i < 3; i++) {
t = performance.now(); c0 = process.cpuUsage();
const c = await db.clone(); await c.query('select 1');
console.log('clone', (performance.now() - t).toFixed(0), 'ms cpu', cu(process.cpuUsage(c0)));
}
