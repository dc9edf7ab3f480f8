import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const fixture = join(import.meta.dirname, 'fixtures', 'golden-pool8.csv');

async function power7(args: string[]) {
  try {
    const r = await run('npx', ['tsx', 'packages/power7-engine/src/cli/main.ts', ...args], {
      cwd: root,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('power7 command line', () => {
  it('analyze --json prints exactly one JSON object of the documented shape', async () => {
    const r = await power7([
      'analyze',
      '--file',
      fixture,
      '--pool',
      '8',
      '--json',
      '--payouts',
      '3=1,4=2,5=3,6=10,7=100',
      '--budget-min',
      '100',
      '--budget-max',
      '240',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      pool: 8,
      tickets: 6,
      rejectedRows: 5,
      draws: 8,
      qualified: 4,
      totalPayout: { min: 60, mean: 127.5, max: 240 },
      top: [
        { combo: '1-2-3-4-5-6-7', winners: { 3: 0, 4: 0, 5: 0, 6: 4, 7: 2 }, totalPayout: 240 },
        { combo: '2-3-4-5-6-7-8', winners: { 3: 0, 4: 0, 5: 0, 6: 4, 7: 2 }, totalPayout: 240 },
        { combo: '1-2-3-4-5-6-8', winners: { 3: 0, 4: 0, 5: 0, 6: 5, 7: 1 }, totalPayout: 150 },
        { combo: '1-3-4-5-6-7-8', winners: { 3: 0, 4: 0, 5: 0, 6: 5, 7: 1 }, totalPayout: 150 },
      ],
    });
  }, 30_000);

  it('bad flags: a message on stderr and a non-zero exit', async () => {
    const r1 = await power7([
      'analyze',
      '--file',
      fixture,
      '--payouts',
      '3=1,4=2',
      '--budget',
      '5',
    ]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/payout for 5 matches is missing/);
    expect(r1.stdout).toBe('');
    const r2 = await power7([
      'analyze',
      '--file',
      fixture,
      '--payouts',
      '3=1,4=2,5=3,6=4,7=5',
      '--budget',
      '5',
      '--budget-min',
      '1',
    ]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/either --budget/);
    const r3 = await power7(['analyze', '--bogus']);
    expect(r3.code).toBe(2);
    const r4 = await power7(['winners', '--file', fixture, '--combo', '1-2-3', '--pool', '8']);
    expect(r4.code).toBe(2);
    expect(r4.stderr).toMatch(/Invalid combo/);
  }, 60_000);

  it('winners writes the CSV of one match type to a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'p7-cli-'));
    try {
      const out = join(dir, 'w.csv');
      const r = await power7([
        'winners',
        '--file',
        fixture,
        '--pool',
        '8',
        '--combo',
        '1-2-3-4-5-6-7',
        '--match',
        '7',
        '--payouts',
        '3=1,4=2,5=3,6=10,7=100',
        '--out',
        out,
      ]);
      expect(r.code).toBe(0);
      expect((await readFile(out, 'utf8')).trimEnd().split('\r\n')).toEqual([
        'Customer ID,Name,Phone,Numbers,Note,match_type,matched_numbers,payout',
        '1,Ann,555-1,1 2 3 4 5 6 7,"likes ""seven""",7,1-2-3-4-5-6-7,100',
        '4,Dee,555-4,1 2 3 4 5 6 7,same ticket as Ann,7,1-2-3-4-5-6-7,100',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
