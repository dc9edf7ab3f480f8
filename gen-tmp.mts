import { generateTickets, writeCustomerCsv } from './packages/power7-engine/bench/generate';
await writeCustomerCsv('/work/scratch/p49-10m.csv', generateTickets(10_000_000, 49, 'uniform', 9));
