import fs from 'node:fs';
import path from 'node:path';

/**
 * The files under `root` that are not 0600 and the folders that are not 0700, each with its mode
 * (`portal-db/base/1/113 666`): what a test of "only the service's user can read it" expects empty
 * (issue 39). Sockets and links are left out; entries that vanish during the walk are skipped.
 */
export function notPrivate(root: string): string[] {
  const found: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
    if (!stat || !(stat.isFile() || stat.isDirectory())) return;
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isFile() ? 0o600 : 0o700))
      found.push(`${path.relative(root, entry) || '.'} ${mode.toString(8)}`);
    if (!stat.isDirectory()) return;
    for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return found;
}
