import { ConfigError } from '@pa/server-kit/config';
import { preferBaselineWasm } from '@pa/server-kit/pglite';
import {
  keepNewFilesPrivate,
  repairDataFolders,
  reportModeRepair,
} from '@pa/server-kit/private-files';
import { loadPortalConfig, rememberPublicUrl } from './config';
import { DataFolderHeldError, openDatabase } from './db/client';

async function main() {
  preferBaselineWasm();
  const config = loadPortalConfig();
  // Before anything is written: what this process makes in DATA_DIR is its OS user's only, and what
  // an older version left open to other users is repaired (said in the log once the app has one).
  keepNewFilesPrivate();
  const repaired = repairDataFolders([config.DATA_DIR]);
  // The database opens first: most of its opening waits on file reads and a background wasm compile,
  // time in which Fastify, the routes and their dependencies load (the dynamic imports below stay
  // lazy in the bundle: scripts/build-services.mjs splits them into their own chunk).
  const openingDatabase = openDatabase(config);
  openingDatabase.catch(() => {}); // awaited in buildPortalApp; a failed import must not leave it unhandled
  const [{ buildPortalApp }, { DEMO_ADMIN, DEMO_COMPANY }] = await Promise.all([
    import('./app'),
    import('./modules/companies/seed'),
  ]);
  const app = await buildPortalApp(config, { openingDatabase });
  // PGlite gives a new cluster's files 0666 and its relation cache files 0644 whatever the umask:
  // they are taken in hand once it is open (not counted: it happens on every start).
  repairDataFolders([config.DATA_DIR]);
  reportModeRepair(repaired, app.log);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ host: config.HOST, port: config.PORTAL_PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORTAL_PORT;
  const url = `http://${config.HOST}:${port}`;
  // PUBLIC_URL follows PORTAL_PORT; with port 0 the real one is known only now.
  const publicUrl =
    process.env.PUBLIC_URL || config.PORTAL_PORT !== 0
      ? config.PUBLIC_URL
      : config.PUBLIC_URL.replace(/:0$/, `:${port}`);
  rememberPublicUrl(config.DATA_DIR, publicUrl);
  // The web app at its public address (a loopback IP's pages move to localhost there, ADR 023);
  // the API answers at the listening address too.
  const web = publicUrl.replace(/\/$/, '');
  console.log(`Power Analyzer web app and portal API: ${web}/ (API docs ${url}/api/docs)`);
  const { generatedPassword, demoCompany } = app.seedResult;
  const signIn = `${publicUrl.replace(/\/$/, '')}/auth/signin`;
  let lines: string[];
  if (generatedPassword) {
    // Printed once, on the start that created the account; it is not stored anywhere in clear.
    lines = [
      'First start: Demo Company created',
      `Sign in at ${signIn}`,
      `user name: ${DEMO_ADMIN.userName}   (or email ${DEMO_ADMIN.email})`,
      `password:  ${generatedPassword}`,
      'This password is shown only now. Set DEMO_ADMIN_PASSWORD to choose it instead.',
    ];
  } else if (demoCompany === false) {
    lines = [
      `Sign in at ${signIn}`,
      `No ${DEMO_COMPANY} was made: the database already holds companies.`,
      'Sign in with an administrator made by `npm run admin -- create-company`.',
    ];
  } else {
    const source = config.DEMO_ADMIN_PASSWORD
      ? 'its password is DEMO_ADMIN_PASSWORD (as set when the company was created)'
      : 'its password was printed on the first start';
    lines = [
      `${DEMO_COMPANY}: sign in at ${signIn}`,
      `as ${DEMO_ADMIN.userName} (${DEMO_ADMIN.email}); ${source}.`,
    ];
  }
  const block = signInBlock(lines);
  // Under `npm start` the block goes to the starter, which prints it once both services are ready
  // (below their start-up logs); run alone, the portal prints it itself.
  if (process.send) process.send({ type: 'sign-in-details', text: block });
  else console.log(block);
}

function signInBlock(lines: string[]) {
  const width = Math.max(...lines.map((l) => l.length)) + 2;
  const rule = '─'.repeat(width);
  return [
    '',
    `  ┌${rule}┐`,
    ...lines.map((l) => `  │ ${l.padEnd(width - 1)}│`),
    `  └${rule}┘`,
    '',
  ].join('\n');
}

main().catch((error: unknown) => {
  console.error(
    error instanceof ConfigError || error instanceof DataFolderHeldError ? error.message : error,
  );
  process.exit(1);
});
