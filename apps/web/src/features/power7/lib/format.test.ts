import { describe, expect, it } from 'vitest';
import { countsOf, formatPercent, formatShareOf, oneIn } from './format';

describe('formatPercent', () => {
  it('says 0 % and 100 % only when exact', () => {
    expect(formatPercent(0)).toBe('0 %');
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(1 / 6_724_520)).toBe('< 0.01 %');
    expect(formatPercent(6_724_519 / 6_724_520)).toBe('> 99.99 %');
  });

  it('keeps one decimal in the middle and two near the ends', () => {
    expect(formatPercent(0.844)).toBe('84.4 %');
    expect(formatPercent(0.003)).toBe('0.3 %');
    expect(formatPercent(0.9995)).toBe('99.95 %');
    expect(formatPercent(0.0005)).toBe('0.05 %');
  });
});

describe('shares with their counts', () => {
  it('shows the counts, and "1 in N draws" under 1 %', () => {
    expect(countsOf(5_674_106, 6_724_520)).toBe('5,674,106 of 6,724,520');
    expect(countsOf(20_173, 6_724_520)).toBe('20,173 of 6,724,520, 1 in 333 draws');
    expect(countsOf(0, 6_724_520)).toBe('0 of 6,724,520');
    expect(oneIn(1, 6_724_520)).toBe('1 in 6,724,520');
  });

  it('never hides a single draw behind a rounded percentage', () => {
    expect(formatShareOf(1, 6_724_520)).toBe('< 0.01 % (1 of 6,724,520, 1 in 6,724,520 draws)');
    expect(formatShareOf(6_724_519, 6_724_520)).toBe('> 99.99 % (6,724,519 of 6,724,520)');
    expect(formatShareOf(0, 10)).toBe('0 % (0 of 10)');
    expect(formatShareOf(10, 10)).toBe('100 % (10 of 10)');
  });

  it('uses the noun given', () => {
    expect(countsOf(2, 1_000, 'tickets')).toBe('2 of 1,000, 1 in 500 tickets');
  });
});
