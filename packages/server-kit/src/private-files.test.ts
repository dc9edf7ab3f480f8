import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repairDataFolders, repairModes, reportModeRepair } from './private-files';

const modeOf = (entry: string) => fs.lstatSync(entry).mode & 0o777;

describe('files only the service user can read (issue 39)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-private-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('takes group and other permissions off a folder and everything under it, once', () => {
    const data = path.join(root, 'data');
    fs.mkdirSync(path.join(data, 'db', 'base'), { recursive: true });
    fs.writeFileSync(path.join(data, 'db', 'base', 'table'), 'rows');
    fs.writeFileSync(path.join(data, 'private'), 'already');
    fs.writeFileSync(path.join(data, 'read-only'), 'kept');
    fs.chmodSync(data, 0o755);
    fs.chmodSync(path.join(data, 'db'), 0o777);
    fs.chmodSync(path.join(data, 'db', 'base'), 0o755);
    fs.chmodSync(path.join(data, 'db', 'base', 'table'), 0o666);
    fs.chmodSync(path.join(data, 'private'), 0o600);
    fs.chmodSync(path.join(data, 'read-only'), 0o444);
    // a link is not followed: what it points to outside stays as it is
    const outside = path.join(root, 'outside');
    fs.writeFileSync(outside, 'not ours');
    fs.chmodSync(outside, 0o644);
    fs.symlinkSync(outside, path.join(data, 'link'));

    expect(repairModes(data)).toEqual({ repaired: 5, refused: [] });
    expect(modeOf(data)).toBe(0o700);
    expect(modeOf(path.join(data, 'db'))).toBe(0o700);
    expect(modeOf(path.join(data, 'db', 'base'))).toBe(0o700);
    expect(modeOf(path.join(data, 'db', 'base', 'table'))).toBe(0o600);
    expect(modeOf(path.join(data, 'private'))).toBe(0o600);
    expect(modeOf(path.join(data, 'read-only'))).toBe(0o400);
    expect(modeOf(outside)).toBe(0o644);
    // nothing left to do the second time
    expect(repairModes(data)).toEqual({ repaired: 0, refused: [] });
    expect(repairModes(path.join(root, 'missing'))).toEqual({ repaired: 0, refused: [] });
    // a data folder set to / or a home folder by mistake is not walked
    for (const wrong of ['/', os.homedir()])
      expect(repairModes(wrong)).toEqual({
        repaired: 0,
        refused: [expect.stringContaining('a root or home folder, not walked')],
      });
  });

  it('walks a folder named inside another one once, and says in one line what it repaired', () => {
    const data = path.join(root, 'nested');
    fs.mkdirSync(path.join(data, 'power7'), { recursive: true });
    fs.writeFileSync(path.join(data, 'power7', 'rows.csv'), 'name,phone');
    fs.chmodSync(path.join(data, 'power7', 'rows.csv'), 0o644);
    const lines: { level: string; object: object; message: string }[] = [];
    const log = {
      info: (object: object, message: string) => lines.push({ level: 'info', object, message }),
      warn: (object: object, message: string) => lines.push({ level: 'warn', object, message }),
    };
    const repaired = repairDataFolders([data, path.join(data, 'power7'), `${data}/`]);
    expect(repaired).toEqual({ repaired: 3, refused: [] });
    reportModeRepair(repaired, log);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', object: { repaired: 3 } });
    expect(lines[0]?.message).toMatch(/^Data folder modes repaired: 3 /);
    lines.length = 0;
    reportModeRepair(repairDataFolders([data]), log);
    expect(lines).toEqual([]);
  });

  it('makes what the process creates after keepNewFilesPrivate its user’s only', () => {
    // in a child process: the umask is process-wide, and the test runner's must stay as it is
    const folder = path.join(root, 'made');
    const script = `
      import fs from 'node:fs';
      import { keepNewFilesPrivate } from ${JSON.stringify(path.join(import.meta.dirname, 'private-files.ts'))};
      keepNewFilesPrivate();
      fs.mkdirSync(${JSON.stringify(path.join(folder, 'sub'))}, { recursive: true });
      fs.writeFileSync(${JSON.stringify(path.join(folder, 'sub', 'file'))}, 'x');
    `;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        encoding: 'utf8',
      },
    );
    expect(child.stderr).toBe('');
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(path.join(folder, 'sub'))).toBe(0o700);
    expect(modeOf(path.join(folder, 'sub', 'file'))).toBe(0o600);
  });
});
