import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Files only the service's OS user can read (issue 39): the data folder holds databases, keys, mail
 * and uploaded customer lists. Each process sets its umask at start, so what it creates from then on
 * is `rw-------` / `rwx------`; `repairModes` takes group and other permissions off what was already
 * there (an older version's folder, a copied cluster) and off what PGlite writes with its own modes.
 */

/** From now on this process creates files 0600 and folders 0700 (and sockets owner-only). */
export function keepNewFilesPrivate(): void {
  process.umask(0o077);
}

export interface ModeRepair {
  /** Entries whose group or other permissions were taken off. */
  repaired: number;
  /** Entries that could not be changed (another owner, a read-only mount), with the reason. */
  refused: string[];
}

/**
 * Takes group and other permissions off `folder` and every file and folder under it (a file 0666
 * becomes 0600, a folder 0755 0700; the owner's own bits are left as they are). Missing folders
 * are skipped; symbolic links are neither followed nor changed; sockets and other special files are
 * left alone (inside a 0700 folder nobody else reaches them). Entries that vanish meanwhile (another
 * process's temporary files) are skipped. Cost: one lstat per entry, one chmod per repaired entry.
 */
export function repairModes(folder: string): ModeRepair {
  const result: ModeRepair = { repaired: 0, refused: [] };
  // A data folder set to `/` or a home folder by mistake: its files are not the service's to change.
  const resolved = path.resolve(folder);
  if (resolved === path.parse(resolved).root || resolved === path.resolve(os.homedir())) {
    result.refused.push(
      `${resolved} (a root or home folder, not walked: give the service a folder of its own)`,
    );
    return result;
  }
  const visit = (entry: string) => {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(entry);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (!stat.isFile() && !stat.isDirectory()) return;
    if ((stat.mode & 0o077) !== 0) {
      try {
        fs.chmodSync(entry, stat.mode & 0o700);
        result.repaired++;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT') result.refused.push(`${entry} (${code ?? String(error)})`);
      }
    }
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = fs.readdirSync(entry);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') result.refused.push(`${entry} (${code ?? String(error)})`);
      return;
    }
    for (const name of names) visit(path.join(entry, name));
  };
  visit(folder);
  return result;
}

/**
 * `repairModes` over each folder; the same folder named twice, or a folder inside another one named,
 * is walked once.
 */
export function repairDataFolders(folders: string[]): ModeRepair {
  const total: ModeRepair = { repaired: 0, refused: [] };
  const unique = [...new Set(folders.map((folder) => path.resolve(folder)))];
  const roots = unique.filter(
    (folder) => !unique.some((other) => other !== folder && folder.startsWith(other + path.sep)),
  );
  for (const folder of roots) {
    const { repaired, refused } = repairModes(folder);
    total.repaired += repaired;
    total.refused.push(...refused);
  }
  return total;
}

interface Log {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Says what a repair did: one info line with the count when anything was repaired, nothing when
 * nothing needed it, a warning naming the first entries that could not be changed.
 */
export function reportModeRepair({ repaired, refused }: ModeRepair, log: Log): void {
  if (repaired > 0)
    log.info(
      { repaired },
      `Data folder modes repaired: ${repaired} files or folders were open to other users; now only the service's user can read them (files 0600, folders 0700)`,
    );
  if (refused.length > 0)
    log.warn(
      { refused: refused.slice(0, 10), count: refused.length },
      'Some entries of the data folder are open to other users and could not be changed: make them the service user’s, or change their modes by hand',
    );
}
