import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { callAdminChannel, type ChannelService } from '@pa/server-kit/admin-channel';
import { DataFolderHeldError, folderHolder, openPglite } from '@pa/server-kit/pglite';
import { repairDataFolders } from '@pa/server-kit/private-files';

/**
 * What a backup holds, in the archive and in DATA_DIR: both databases, the sessions, and the keys only
 * when asked (ADR 018: the keys are kept apart, so a stolen archive signs no token and opens no secret).
 */
const DATABASES: { service: ChannelService; folder: string }[] = [
  { service: 'portal', folder: 'portal-db' },
  { service: 'power7', folder: 'power7-db' },
];
const FORMAT = 'power-analyzer-backup/1';

interface Manifest {
  format: string;
  createdAt: string;
  databases: string[];
  files: string[];
}

/** Where the embedded default keeps each part; Power 7's sessions follow its STORAGE_DIR. */
export function layout(dataDir: string, env: NodeJS.ProcessEnv) {
  return {
    keys: path.join(dataDir, 'keys'),
    power7: env.STORAGE_DIR || path.join(dataDir, 'power7'),
  };
}

/**
 * A database's dump as it is now: from the running service through its admin channel (PGlite admits
 * one process per folder), or from the folder itself when no service holds it. Null: never created.
 */
async function dumpDatabase(dataDir: string, service: ChannelService, name: string) {
  const answer = await callAdminChannel(dataDir, service, 'POST', '/backup/database');
  if (answer?.status === 200) return answer.body;
  if (answer)
    throw new Error(`The ${service} service could not dump its database (${answer.status}).`);
  const folder = path.join(dataDir, name);
  if (!fs.existsSync(folder)) return null;
  const holder = folderHolder(folder);
  if (holder !== null) throw new DataFolderHeldError(folder, holder);
  const opened = await openPglite(folder);
  try {
    return Buffer.from(await (await opened.client.dumpDataDir('gzip')).arrayBuffer());
  } finally {
    await opened.close();
  }
}

/**
 * Writes one archive (tar.gz, mode 0600) of the embedded default while it runs: each database dumped
 * in one consistent step, then the sessions folder (and, with `includeKeys`, the keys) copied. The
 * databases come first: a session made after the dump is only an extra folder, removed as a leftover
 * by Power 7's sweep after a restore.
 */
export async function backup(
  dataDir: string,
  out: string,
  env: NodeJS.ProcessEnv,
  { includeKeys = false }: { includeKeys?: boolean } = {},
) {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-backup-'));
  const partial = `${out}.partial`;
  try {
    const manifest: Manifest = {
      format: FORMAT,
      createdAt: new Date().toISOString(),
      databases: [],
      files: [],
    };
    for (const { service, folder } of DATABASES) {
      const dump = await dumpDatabase(dataDir, service, folder);
      if (!dump) continue;
      fs.writeFileSync(path.join(staging, `${folder}.tar.gz`), dump);
      manifest.databases.push(folder);
    }
    for (const [name, from] of Object.entries(layout(dataDir, env))) {
      if (!fs.existsSync(from) || (name === 'keys' && !includeKeys)) continue;
      fs.cpSync(from, path.join(staging, name), { recursive: true });
      manifest.files.push(name);
    }
    if (manifest.databases.length === 0)
      throw new Error(`${dataDir} holds no portal or Power 7 database: nothing to back up.`);
    fs.writeFileSync(path.join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    const entries = [
      'manifest.json',
      ...manifest.databases.map((d) => `${d}.tar.gz`),
      ...manifest.files,
    ];
    // Made 0600 before anything is written into it, whatever the umask of the caller.
    fs.rmSync(partial, { force: true });
    fs.closeSync(fs.openSync(partial, 'wx', 0o600));
    fs.chmodSync(partial, 0o600);
    await tar.create({ gzip: true, file: partial, cwd: staging, portable: true }, entries);
    // never half an archive under the name asked for
    fs.renameSync(partial, out);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}

/**
 * Restores an archive into a DATA_DIR that holds none of its parts yet (a fresh folder, or the old one
 * moved aside; the kept `keys/` may already be there when the archive has none): the services must be
 * stopped, as PGlite loads a dump only into a new folder. Everything restored is made the OS user's
 * only (files 0600, folders 0700).
 */
export async function restore(dataDir: string, input: string, env: NodeJS.ProcessEnv) {
  const files = layout(dataDir, env);
  const isTaken = (target: string) => fs.existsSync(target) && fs.readdirSync(target).length > 0;
  const refuse = (taken: string[]) =>
    new Error(
      `Will not overwrite ${taken.join(', ')}: restore into an empty DATA_DIR (stop the services and move the old one aside first).`,
    );
  // the databases first: no archive is unpacked to be refused for them
  const databasesTaken = DATABASES.map(({ folder }) => path.join(dataDir, folder)).filter(isTaken);
  if (databasesTaken.length > 0) throw refuse(databasesTaken);
  fs.mkdirSync(dataDir, { recursive: true });
  // beside the targets, so the folders are moved into place, not copied again
  const staging = fs.mkdtempSync(path.join(dataDir, '.restore-'));
  try {
    await tar.extract({ file: input, cwd: staging });
    const manifestFile = path.join(staging, 'manifest.json');
    const manifest = fs.existsSync(manifestFile)
      ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest)
      : null;
    if (manifest?.format !== FORMAT) throw new Error(`${input} is not a Power Analyzer backup.`);
    // the parts this archive carries: keys kept apart may be in place already when it has none
    const taken = manifest.files
      .map((name) => files[name as keyof typeof files])
      .filter((target) => target && isTaken(target));
    if (taken.length > 0) throw refuse(taken);
    for (const folder of manifest.databases) {
      const dump = new Blob([fs.readFileSync(path.join(staging, `${folder}.tar.gz`))]);
      const opened = await openPglite(path.join(dataDir, folder), { loadDataDir: dump });
      await opened.close();
    }
    for (const name of manifest.files) {
      const target = files[name as keyof typeof files];
      fs.rmSync(target, { recursive: true, force: true });
      fs.mkdirSync(path.dirname(target), { recursive: true });
      // STORAGE_DIR may be on another disk, where a folder cannot be moved, only copied
      try {
        fs.renameSync(path.join(staging, name), target);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        fs.cpSync(path.join(staging, name), target, { recursive: true });
      }
    }
    // an archive made by an older version keeps the modes it had (PGlite's files 0666)
    repairDataFolders([dataDir, files.power7]);
    return manifest;
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
