import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateTickets, writeCustomerCsv } from '../bench/generate';
import { capRun, limitRun } from '../src/analysis/liability';
import { main } from '../src/cli/main';
import { readCustomerFile } from '../src/reading/customer-file';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const fixture = join(import.meta.dirname, 'fixtures', 'golden-pool8.csv');

/** Spawns the real command line (as `npm run power7` does: tsx on src/cli/main.ts). */
async function spawnPower7(args: string[]) {
  try {
    const r = await run(
      process.execPath,
      ['--import', 'tsx', 'packages/power7-engine/src/cli/main.ts', ...args],
      { cwd: root },
    );
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The compiled command line (`npm run power7` runs it, scripts/build-services.mjs builds it; Vitest's
 * global set-up rebuilds it when stale, before any test runs).
 */
async function spawnCompiled(args: string[]) {
  const r = await run(process.execPath, ['packages/power7-engine/dist/cli.mjs', ...args], {
    cwd: root,
  });
  return { stdout: r.stdout, stderr: r.stderr };
}

/** Runs `main()` in this process, capturing what it writes. */
async function inProcess(args: string[]) {
  let stdout = '';
  let stderr = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => {
    stdout += String(c);
    return true;
  });
  vi.spyOn(process.stderr, 'write').mockImplementation((c: string | Uint8Array) => {
    stderr += String(c);
    return true;
  });
  const code = await main(args);
  vi.restoreAllMocks();
  return { code, stdout, stderr };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('power7 command line', () => {
  it('the compiled CLI answers as the sources do, its scan on compiled worker threads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'power7-compiled-'));
    try {
      const file = join(dir, 'tickets.csv');
      await writeCustomerCsv(file, generateTickets(2000, 20, 'uniform', 5));
      const args = ['analyze', '--file', file, '--pool', '20', '--json'];
      const money = ['--payouts', '3=1,4=5,5=50,6=500,7=5000', '--budget', '900'];
      const compiled = await spawnCompiled([...args, ...money, '--workers', '2']);
      const sources = await spawnPower7([...args, ...money, '--workers', '1']);
      expect(compiled.stderr).toBe('');
      expect(JSON.parse(compiled.stdout)).toEqual(JSON.parse(sources.stdout));
      expect(JSON.parse(compiled.stdout)).toMatchObject({ tickets: 2000, draws: 77520 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('the compiled CLI on a file read in ranges and counted as read answers as one thread does', async () => {
    // above 8 MiB: read in byte ranges on the workers, each counting its range's 6-subsets, after
    // the workers were started first thing and V8 told to compile on the threads that ask
    const dir = await mkdtemp(join(tmpdir(), 'power7-ranges-'));
    try {
      const file = join(dir, 'tickets.csv');
      await writeCustomerCsv(file, generateTickets(160_000, 20, 'uniform', 7));
      const args = ['analyze', '--file', file, '--pool', '20', '--json'];
      const money = ['--payouts', '3=1,4=5,5=50,6=500,7=5000', '--budget', '70000'];
      const inRanges = await spawnCompiled([...args, ...money, '--workers', '2']);
      const oneThread = await spawnCompiled([...args, ...money, '--workers', '1']);
      expect(inRanges.stderr).toBe('');
      expect(inRanges.stdout).toBe(oneThread.stdout);
      expect(JSON.parse(inRanges.stdout)).toMatchObject({ tickets: 160_000, draws: 77520 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('analyze --json prints exactly one JSON object of the documented shape (real process)', async () => {
    const r = await spawnPower7([
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
    expect(r.stderr).toBe('');
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
      // the 8 totals: 60 ×4, 150 ×2, 240 ×2; the 6 tickets are 4 distinct draws
      quantiles: {
        '50': 60,
        '90': 240,
        '95': 240,
        '99': 240,
        '99.9': 240,
        '99.99': 240,
        '99.999': 240,
      },
      jackpotDraws: 4,
    });
  }, 60_000);

  it('bad flags: a message on stderr and a non-zero exit code (real process)', async () => {
    const r = await spawnPower7([
      'analyze',
      '--file',
      fixture,
      '--payouts',
      '3=1,4=2',
      '--budget',
      '5',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/payout for 5 matches is missing/);
    expect(r.stdout).toBe('');
  }, 60_000);

  it.each([
    [['analyze', '--bogus'], /Unknown option/],
    [
      [
        'analyze',
        '--file',
        fixture,
        '--payouts',
        '3=1,4=2,5=3,6=4,7=5',
        '--budget',
        '5',
        '--budget-min',
        '1',
      ],
      /either --budget/,
    ],
    [
      ['analyze', '--file', fixture, '--payouts', '3=1,4=2,5=3,6=4,7=5', '--budget', 'lots'],
      /--budget needs a number/,
    ],
    [
      ['analyze', '--file', fixture, '--payouts', '3=1,4=2,5=3,6=4,7=5', '--budget', '-5'],
      /--budget must be 0 or more, got -5/,
    ],
    [
      [
        'analyze',
        '--file',
        fixture,
        '--payouts',
        '3=1,4=2,5=3,6=4,7=5',
        '--budget-min',
        '-1.5',
        '--budget-max',
        '5',
      ],
      /--budget-min must be 0 or more, got -1.5/,
    ],
    [
      ['analyze', '--file', fixture, '--payouts', '3=1,4=2,5=3,6=4,7=-5', '--budget', '5'],
      /payout for 7 matches must be a number ≥ 0/,
    ],
    [
      [
        'analyze',
        '--file',
        fixture,
        '--payouts',
        '3=1,4=2,5=3,6=4,7=5',
        '--budget',
        '5',
        '--pool',
        '50',
      ],
      /pool size/,
    ],
    [['winners', '--file', fixture, '--combo', '1-2-3', '--pool', '8'], /Invalid combo/],
    [
      ['winners', '--file', fixture, '--combo', '1-2-3-4-5-6-7', '--pool', '8', '--match', '2'],
      /--match/,
    ],
    [['frobnicate'], /Unknown command/],
  ])('rejects %j', async (args, message) => {
    const r = await inProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  it('a missing file is exit code 1 with a clear message', async () => {
    const r = await inProcess([
      'analyze',
      '--file',
      '/nonexistent.csv',
      '--payouts',
      '3=1,4=2,5=3,6=4,7=5',
      '--budget',
      '5',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/file not found/);
  });

  it('limit --json prints what the liability limit and the cap do, as the engine counts them', async () => {
    const payouts = { 3: 1, 4: 2, 5: 3, 6: 10, 7: 100 };
    const args = ['--file', fixture, '--pool', '8', '--payouts', '3=1,4=2,5=3,6=10,7=100'];
    const r = await inProcess([
      'limit',
      ...args,
      '--limit',
      '150',
      '--cap',
      '--json',
      '--workers',
      '1',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const file = await readCustomerFile(fixture, { pool: 8, keepRejected: false });
    const input = {
      tickets: file.tickets,
      count: file.count,
      pool: 8,
      payouts,
      budget: { type: 'fixed' as const, budget: 150 },
      workers: 1,
    };
    const run = await limitRun(input, 150);
    const answer = JSON.parse(r.stdout);
    expect(answer).toEqual({
      limit: 150,
      tickets: file.count,
      accepted: run.accepted,
      refused: run.refused,
      worstBefore: run.worstBefore,
      worstAfter: run.worstAfter,
      cap: await capRun(input, 150),
    });
    // the two copies of 1-2-3-4-5-6-7 pay 200 at their own draw: the second is refused
    expect(answer.refused).toBeGreaterThan(0);
    expect(answer.worstAfter.totalPayout).toBeLessThanOrEqual(150);
    const words = await inProcess(['limit', ...args, '--limit', '150', '--cap', '--workers', '1']);
    expect(words.stdout).toContain(`${run.refused} refused`);
    expect(words.stdout).toContain('Cap per combination: 1');
    const negative = await inProcess(['limit', ...args, '--limit', '-5']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('--limit must be 0 or more, got -5');
  });

  it('winners writes the CSV of one match type to a file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'p7-cli-'));
    try {
      const out = join(dir, 'w.csv');
      const r = await inProcess([
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
        '1,Ann,555-1,1 2 3 4 5 6 7,"likes ""seven""",7,1 2 3 4 5 6 7,100',
        '4,Dee,555-4,1 2 3 4 5 6 7,same ticket as Ann,7,1 2 3 4 5 6 7,100',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
