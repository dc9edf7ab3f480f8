import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError } from '@pa/server-kit/config';
import { loadPortalConfig, publicUrlForCommand } from '../config';
import { DataFolderHeldError, folderHolder, openDatabase } from '../db/client';
import { hashPassword, passwordProblem } from '../modules/accounts/passwords';
import { createCompany } from '../modules/companies/create-company';

const USAGE = `Usage:
  npm run admin -- create-company --name "Acme" --admin-email a@acme.test --admin-password '…' [--admin-username name] [--admin-first-name …] [--admin-last-name …]

Creates a company with its system permissions, its Administrator role and its first administrator.
Idempotent: a company of the same name is left as it is. Uses DATABASE_URL when set, otherwise the
PGlite folder in DATA_DIR (refused while the portal server holds it: stop the server first).`;

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
  if (!config.DATABASE_URL) {
    const folder = path.join(config.DATA_DIR, 'portal-db');
    const holder = folderHolder(folder);
    if (holder !== null) throw new DataFolderHeldError(folder, holder);
  }
  const database = await openDatabase(config);
  try {
    const result = await createCompany(database.db, {
      name,
      admin: {
        userName,
        email,
        passwordHash: await hashPassword(password),
        userFirstName: values['admin-first-name'] ?? 'Company',
        userLastName: values['admin-last-name'] ?? 'Administrator',
      },
    });
    if (result.created) {
      console.log(
        `Company "${name}" created (id ${result.companyId}).\n` +
          `Its administrator signs in at ${new URL('/auth/signin', publicUrlForCommand(config, process.env)).toString()} ` +
          `as ${userName} (${email}).`,
      );
    } else {
      console.log(`Company "${name}" already exists (id ${result.companyId}); nothing changed.`);
    }
  } finally {
    await database.close();
  }
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === 'create-company') return createCompanyCommand(rest);
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
