import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSecretsKey, SecretsKeyError } from './keys';

describe('the secrets key (ADR 018)', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pa-keys-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('is made on first use (32 bytes, base64, 0600 in a 0700 folder) and read back the same', () => {
    const dataDir = path.join(root, 'first');
    const key = loadSecretsKey(dataDir);
    expect(key).toHaveLength(32);
    const file = path.join(dataDir, 'keys', 'secrets.key');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(key.toString('base64'));
    expect(loadSecretsKey(dataDir).equals(key)).toBe(true);
    expect(fs.readdirSync(path.dirname(file))).toEqual(['secrets.key']);
  });

  it('stops the start with a message saying what to do when it is wrong or cannot be made', () => {
    const short = path.join(root, 'short');
    fs.mkdirSync(path.join(short, 'keys'), { recursive: true });
    fs.writeFileSync(path.join(short, 'keys', 'secrets.key'), 'c2hvcnQ=\n');
    expect(() => loadSecretsKey(short)).toThrow(/must hold 32 bytes in base64.*it holds 5/);
    // keys/ that is not a folder stands for one the process cannot write (a read-only mount)
    const blocked = path.join(root, 'blocked');
    fs.mkdirSync(blocked);
    fs.writeFileSync(path.join(blocked, 'keys'), 'not a folder');
    expect(() => loadSecretsKey(blocked)).toThrow(SecretsKeyError);
    expect(() => loadSecretsKey(blocked)).toThrow(/secrets\.key is missing and cannot be made/);
  });
});
