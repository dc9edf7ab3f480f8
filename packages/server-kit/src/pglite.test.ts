import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolderHeldError, folderHolder, lockFolder, openPglite } from './pglite';

describe('openPglite and the data-folder lock', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-pglite-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('opens PGlite in the folder, holds it while open and releases it on close', async () => {
    const folder = path.join(root, 'db');
    const opened = await openPglite(folder);
    expect(fs.readFileSync(`${folder}.lock`, 'utf8')).toBe(String(process.pid));
    await opened.client.exec('create table t (v int); insert into t values (42)');
    await opened.close();
    expect(fs.existsSync(`${folder}.lock`)).toBe(false);
    const reopened = await openPglite(folder);
    expect((await reopened.client.query('select v from t')).rows).toEqual([{ v: 42 }]);
    await reopened.close();
  }, 60_000);

  it('refuses a folder a live process holds, naming it and the pid', async () => {
    const folder = path.join(root, 'held');
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      if (!other.pid) throw new Error('no child process');
      fs.writeFileSync(`${folder}.lock`, String(other.pid));
      expect(folderHolder(folder)).toBe(other.pid);
      await expect(openPglite(folder)).rejects.toThrow(DataFolderHeldError);
      expect(() => lockFolder(folder)).toThrow(`in use by process ${other.pid}`);
      expect(fs.existsSync(folder)).toBe(false);
    } finally {
      other.kill();
    }
  });

  it('takes over the lock of a dead process', async () => {
    const folder = path.join(root, 'stale');
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('exit', resolve));
    fs.writeFileSync(`${folder}.lock`, String(dead.pid));
    expect(folderHolder(folder)).toBeNull();
    const unlock = lockFolder(folder);
    expect(fs.readFileSync(`${folder}.lock`, 'utf8')).toBe(String(process.pid));
    unlock();
    expect(fs.existsSync(`${folder}.lock`)).toBe(false);
  });
});
