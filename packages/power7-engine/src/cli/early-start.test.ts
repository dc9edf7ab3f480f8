import { describe, expect, it } from 'vitest';
import { availableParallelism } from 'node:os';
import { earlyWorkerCount } from './early-start';

describe("the CLI's early start of its scan workers", () => {
  it('starts as many as analyze and limit will ask for, and none for other commands or bad counts', () => {
    const all = availableParallelism() > 1 ? availableParallelism() : 0;
    expect(earlyWorkerCount(['analyze', '--file', 'f.csv'])).toBe(all);
    expect(earlyWorkerCount(['limit', '--workers', '3', '--file', 'f.csv'])).toBe(3);
    expect(earlyWorkerCount(['analyze', '--workers=4'])).toBe(4);
    expect(earlyWorkerCount(['analyze', '--workers', '1'])).toBe(0);
    for (const bad of ['0', '-2', '2.5', 'two', '65', ''])
      expect(earlyWorkerCount(['analyze', '--workers', bad]), bad).toBe(0);
    expect(earlyWorkerCount(['analyze', '--workers'])).toBe(0);
    expect(earlyWorkerCount(['winners', '--workers', '2'])).toBe(0);
    expect(earlyWorkerCount([])).toBe(0);
  });
});
