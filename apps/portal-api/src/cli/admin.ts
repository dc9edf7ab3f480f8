import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { callAdminChannel } from '@pa/server-kit/admin-channel';
import { ConfigError } from '@pa/server-kit/config';
import { preferBaselineWasm } from '@pa/server-kit/pglite';
import { keepNewFilesPrivate, repairDataFolders } from '@pa/server-kit/private-files';
import { loadPortalConfig, publicUrlForCommand } from '../config';
import { DataFolderHeldError, folderHolder, openDatabase } from '../db/client';
import { hashPassword, passwordProblem } from '../modules/accounts/passwords';
import {
  createCompany,
  type CreatedCompany,
  type NewCompany,
} from '../modules/companies/create-company';
import { backup, layout, restore } from './backup';

const USAGE = `Usage:
  npm run admin -- create-company --name "Acme" --admin-email a@acme.test --admin-password '…' [--admin-username name] [--admin-first-name …] [--admin-last-name …]

  npm run admin -- backup --out FILE [--include-keys]
  npm run admin -- restore --in FILE

create-company: creates a company with its system permissions, its Administrator role and its first
administrator. Idempotent: a company of the same name is left as it is. Uses DATABASE_URL when set,
otherwise the PGlite folder in DATA_DIR; while the portal runs there, it asks the running portal
(through its admin socket in DATA_DIR/run).

backup: one archive (mode 0600) of the embedded default (both PGlite databases, the Power 7
sessions), consistent while the services run. DATA_DIR/keys (the signing key, the key that seals
second-step secrets) is left out, to be kept apart; --include-keys puts it in. restore: unpacks one
into an empty DATA_DIR, services stopped; put the kept keys/ back before starting.
With DATABASE_URL (PostgreSQL) use pg_dump and copy the storage instead: docs/operations.md.`;

class UsageError extends Error {}

const emailSchema = z.email();

async function createCompanyCommand(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-password': { type: 'string' },
      'admin-username': { type: 'string' },
      'admin-first-name': { type: 'string' },
      'admin-last-name': { type: 'string' },
    },
    strict: true,
  });
  const name = values.name?.trim();
  const email = values['admin-email']?.trim().toLowerCase();
  const password = values['admin-password'];
  if (!name) throw new UsageError('--name is required.');
  if (!email || !emailSchema.safeParse(email).success)
    throw new UsageError('--admin-email must be an email address.');
  if (!password) throw new UsageError('--admin-password is required.');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(`--admin-password: ${problem}.`);
  const userName = values['admin-username']?.trim() || email.split('@')[0] || email;

  const config = loadPortalConfig();
  const input: NewCompany = {
    name,
    admin: {
      userName,
      email,
      passwordHash: await hashPassword(password),
      userFirstName: values['admin-first-name'] ?? 'Company',
      userLastName: values['admin-last-name'] ?? 'Administrator',
    },
  };
  const result = await createCompanyWhereItRuns(config, input);
  if (result.created) {
    console.log(
      `Company "${name}" created (id ${result.companyId}).\n` +
        `Its administrator signs in at ${new URL('/auth/signin', publicUrlForCommand(config, process.env)).toString()} ` +
        `as ${userName} (${email}).`,
    );
  } else {
    console.log(`Company "${name}" already exists (id ${result.companyId}); nothing changed.`);
  }
}

/**
 * On PGlite a running portal alone may open the folder: it is asked through its admin socket. With
 * no portal answering there (or DATABASE_URL), the database is opened here.
 */
async function createCompanyWhereItRuns(
  config: ReturnType<typeof loadPortalConfig>,
  input: NewCompany,
): Promise<CreatedCompany> {
  if (!config.DATABASE_URL) {
    const answer = await callAdminChannel(config.DATA_DIR, 'portal', 'POST', '/companies', input);
    if (answer?.status === 200) return answer.json<CreatedCompany>();
    if (answer) throw new Error(answer.json<{ message: string }>().message);
    const folder = path.join(config.DATA_DIR, 'portal-db');
    const holder = folderHolder(folder);
    if (holder !== null) throw new DataFolderHeldError(folder, holder);
  }
  const database = await openDatabase(config);
  try {
    return await createCompany(database.db, input);
  } finally {
    await database.close();
    // PGlite writes some files with its own modes (0644) whatever the umask
    if (!config.DATABASE_URL) repairDataFolders([config.DATA_DIR]);
  }
}

/** `backup --out FILE [--include-keys]` / `restore --in FILE`: the embedded default only (cli/backup.ts). */
async function backupCommand(command: 'backup' | 'restore', args: string[]) {
  const option = command === 'backup' ? 'out' : 'in';
  const options: Record<string, { type: 'string' | 'boolean' }> = { [option]: { type: 'string' } };
  if (command === 'backup') options['include-keys'] = { type: 'boolean' };
  const { values } = parseArgs({ args, options, strict: true });
  const file = values[option];
  if (typeof file !== 'string' || !file) throw new UsageError(`--${option} FILE is required.`);
  const config = loadPortalConfig();
  if (config.DATABASE_URL)
    throw new UsageError(
      `${command} covers the embedded default (PGlite in DATA_DIR); with DATABASE_URL use pg_dump and copy the storage (docs/operations.md).`,
    );
  const target = path.resolve(file);
  const manifest =
    command === 'backup'
      ? await backup(config.DATA_DIR, target, process.env, {
          includeKeys: values['include-keys'] === true,
        })
      : await restore(config.DATA_DIR, target, process.env);
  // a database dumped from its folder was opened here: PGlite rewrote files with its own modes
  repairDataFolders([config.DATA_DIR]);
  const parts = [...manifest.databases, ...manifest.files].join(', ');
  const withKeys = manifest.files.includes('keys');
  if (command === 'backup') {
    console.log(`Backup written to ${target} (${parts}).`);
    if (!withKeys)
      console.log(
        `It holds no keys: keep a copy of ${layout(config.DATA_DIR, process.env).keys} apart from it (docs/operations.md).`,
      );
    return;
  }
  console.log(
    `Restored ${parts} from ${target} (taken ${manifest.createdAt}) into ${config.DATA_DIR}.`,
  );
  const keys = layout(config.DATA_DIR, process.env).keys;
  if (!withKeys && !fs.existsSync(path.join(keys, 'portal-signing-key.json')))
    console.log(
      `The archive holds no keys: copy the kept keys/ to ${keys} before starting. Without it the portal makes new keys: ` +
        'every sign-in ends, and authenticator apps must be set up again (passkeys and passwords keep working).',
    );
}

async function main(argv: string[]) {
  preferBaselineWasm();
  // What the command writes (an archive, a restored folder, a database it opens) is its OS user's only.
  keepNewFilesPrivate();
  const [command, ...rest] = argv;
  if (command === 'create-company') return createCompanyCommand(rest);
  if (command === 'backup' || command === 'restore') return backupCommand(command, rest);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  throw new UsageError(`Unknown command "${command}".`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      process.exit(64);
    }
    if (error instanceof DataFolderHeldError) {
      console.error(
        `${error.message}\nThe admin command never opens a database a running portal server uses.`,
      );
      process.exit(75);
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
