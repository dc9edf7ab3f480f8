import { ConfigError } from '@pa/server-kit/config';
import { preferBaselineWasm } from '@pa/server-kit/pglite';
import {
  keepNewFilesPrivate,
  repairDataFolders,
  reportModeRepair,
} from '@pa/server-kit/private-files';
import { loadPower7Config } from './config';
import { openDatabase } from './db/client';

async function main() {
  preferBaselineWasm();
  const config = loadPower7Config();
  // Before anything is written: what this process makes in DATA_DIR and STORAGE_DIR (customer lists,
  // results) is its OS user's only, and what an older version left open to other users is repaired
  // (said in the log once the app has one).
  keepNewFilesPrivate();
  const folders = [config.DATA_DIR, config.STORAGE_DIR];
  const repaired = repairDataFolders(folders);
  // The database opens first: most of its opening waits on file reads and a background wasm compile,
  // time in which Fastify, the routes and their dependencies load (the dynamic import below stays
  // lazy in the bundle: scripts/build-services.mjs splits it into its own chunk).
  const openingDatabase = openDatabase(config);
  openingDatabase.catch(() => {}); // awaited in buildPower7App; a failed import must not leave it unhandled
  const { buildPower7App } = await import('./app');
  const app = await buildPower7App(config, { openingDatabase });
  // PGlite gives a new cluster's files 0666 and its relation cache files 0644 whatever the umask:
  // they are taken in hand once it is open (not counted: it happens on every start).
  repairDataFolders(folders);
  reportModeRepair(repaired, app.log);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ host: config.HOST, port: config.POWER7_PORT });
  console.log(`Power 7 API: http://${config.HOST}:${config.POWER7_PORT}/ (API docs /api/docs)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
