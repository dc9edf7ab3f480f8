import { describe, expect, it } from 'vitest';
import {
  answerSummary,
  drawLink,
  gaugeOf,
  modifierKey,
  newRequestId,
  resultWords,
} from './book-text';

const book = { limit: 1_500_000, currency: 'EUR' };
const results = (accepted: number, refused: number) => [
  ...Array.from({ length: accepted }, () => ({ accepted: true })),
  ...Array.from({ length: refused }, () => ({
    accepted: false,
    draw: '1-2-3-4-5-6-7',
    wouldBe: 9,
  })),
];

describe('gaugeOf', () => {
  it('says the head-room, the worst draw and the share used, in the book’s currency', () => {
    const g = gaugeOf({
      ...book,
      worst: { combo: '1-2-3-4-5-6-7', totalPayout: 1_200_000 },
      headroom: 300_000,
    });
    expect(g.percent).toBe(80);
    expect(g.words).toBe(
      'Head-room €300,000.00: the worst draw pays €1,200,000.00 of the €1,500,000.00 limit (80.0 % used).',
    );
  });

  it('says when no head-room is left, and reads without a currency', () => {
    const g = gaugeOf({
      limit: 50,
      worst: { combo: '1-2-3-4-5-6-7', totalPayout: 50 },
      headroom: 0,
    });
    expect(g.percent).toBe(100);
    expect(g.words).toBe(
      'No head-room left: the worst draw pays the whole limit of 50.00, so a ticket that wins anything on it is refused.',
    );
  });

  it('reads an empty book as nothing used', () => {
    expect(
      gaugeOf({ ...book, worst: { combo: '1-2-3-4-5-6-7', totalPayout: 0 }, headroom: 1_500_000 })
        .percent,
    ).toBe(0);
  });
});

describe('answerSummary', () => {
  it('says what a sale did', () => {
    expect(answerSummary({ dryRun: false, results: results(1, 0) })).toBe('Sold the ticket.');
    expect(answerSummary({ dryRun: false, results: results(3, 0) })).toBe('Sold all 3 tickets.');
    expect(answerSummary({ dryRun: false, results: results(3, 1) })).toBe(
      'Sold 3 of 4 tickets; 1 refused.',
    );
    expect(answerSummary({ dryRun: false, results: results(0, 1) })).toBe(
      'Sold nothing: the ticket was refused.',
    );
    expect(answerSummary({ dryRun: false, results: results(0, 2) })).toBe(
      'Sold nothing: all 2 tickets were refused.',
    );
  });

  it('says a check sold nothing', () => {
    expect(answerSummary({ dryRun: true, results: results(1, 0) })).toBe(
      'Checked 1 ticket: it fits. Nothing was sold.',
    );
    expect(answerSummary({ dryRun: true, results: results(2, 0) })).toBe(
      'Checked 2 tickets: all fit. Nothing was sold.',
    );
    expect(answerSummary({ dryRun: true, results: results(2, 1) })).toBe(
      'Checked 3 tickets: 2 would be accepted, 1 refused. Nothing was sold.',
    );
    expect(answerSummary({ dryRun: true, results: results(0, 1) })).toBe(
      'Checked 1 ticket: it would be refused. Nothing was sold.',
    );
  });
});

describe('resultWords', () => {
  it('says accepted, or the draw and what it would have paid', () => {
    expect(resultWords({ accepted: true }, false, book)).toBe('Sold.');
    expect(resultWords({ accepted: true }, true, book)).toBe('Fits: it can be sold.');
    expect(
      resultWords({ accepted: false, draw: '1-2-3-4-5-6-7', wouldBe: 1_500_001 }, false, book),
    ).toBe('Refused: draw 1-2-3-4-5-6-7 would pay €1,500,001.00, over the €1,500,000.00 limit.');
    expect(resultWords({ accepted: false }, false, book)).toBe('Refused.');
  });
});

describe('drawLink', () => {
  it('opens the draw’s winners in the session on the match type the ticket would have had', () => {
    expect(drawLink('s1', [1, 2, 3, 4, 8, 9, 10], '1-2-3-4-5-6-7')).toBe(
      '/app/power7/results?session=s1&combo=1-2-3-4-5-6-7&match=4',
    );
    expect(drawLink('s1', [1, 2, 8, 9, 10, 11, 12], '1-2-3-4-5-6-7')).toBe(
      '/app/power7/results?session=s1&combo=1-2-3-4-5-6-7',
    );
  });
});

describe('newRequestId', () => {
  it('is a fresh version-4 UUID each time, with or without crypto.randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newRequestId()).toMatch(uuid);
    expect(newRequestId()).not.toBe(newRequestId());
    const original = crypto.randomUUID;
    try {
      Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
      const ids = [newRequestId(), newRequestId()];
      expect(ids[0]).toMatch(uuid);
      expect(ids[0]).not.toBe(ids[1]);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});

describe('modifierKey', () => {
  it('is ⌘ on Apple machines and Ctrl elsewhere', () => {
    expect(modifierKey('MacIntel')).toBe('⌘');
    expect(modifierKey('Linux x86_64')).toBe('Ctrl');
  });
});
