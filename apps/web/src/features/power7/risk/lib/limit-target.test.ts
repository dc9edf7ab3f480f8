import { describe, expect, it } from 'vitest';
import { parseChance, parseTarget } from './limit-target';

describe('the limit calculator reads a chance', () => {
  it('as "1 in N", with or without separators', () => {
    expect(parseChance('1 in 1000')).toEqual({ value: 0.001 });
    expect(parseChance(' 1 in 1,000,000 ')).toEqual({ value: 1e-6 });
    expect(parseChance('1/200')).toEqual({ value: 0.005 });
    expect(parseChance('1 IN 4')).toEqual({ value: 0.25 });
  });

  it('as a percentage', () => {
    expect(parseChance('0.1 %')).toEqual({ value: 0.001 });
    expect(parseChance('5%')).toEqual({ value: 0.05 });
    expect(parseChance('0 %')).toEqual({ value: 0 });
  });

  it('refuses what the service would refuse, saying how to write it', () => {
    expect(parseChance('')).toHaveProperty('error');
    expect(parseChance('100 %')).toEqual({
      error: 'A chance of exceeding must be less than 100 %.',
    });
    expect(parseChance('1 in 1')).toEqual({
      error: 'In "1 in N", N must be more than 1 (1 in 1 is every draw).',
    });
    expect(parseChance('0.001')).toEqual({
      error: 'Write a chance as "1 in 1000" or as a percentage such as "0.1 %".',
    });
    expect(parseChance('-1 %')).toHaveProperty('error');
  });
});

describe('the limit calculator reads an expected excess', () => {
  it('as an amount, by the budget rule', () => {
    expect(parseTarget('excess', '1500.50')).toEqual({ value: 1500.5 });
    expect(parseTarget('excess', '')).toEqual({ error: 'The expected excess is required.' });
    expect(parseTarget('excess', '10,000')).toHaveProperty('error');
  });
});
