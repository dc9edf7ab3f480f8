import { describe, expect, it } from 'vitest';
import { controlCharacterPath, multiLineText, singleLineText } from './text';

describe('text fields', () => {
  it('refuses every control character on one line, and keeps tab and line breaks on several', () => {
    expect(singleLineText().safeParse('Ada Lovelace').success).toBe(true);
    for (const control of ['\u0000', '\u0007', '\t', '\n', '\r', '\u001b', '\u007f'])
      expect(singleLineText().safeParse(`a${control}b`).success, JSON.stringify(control)).toBe(
        false,
      );
    expect(multiLineText().safeParse('one\n\ttwo\r\n').success).toBe(true);
    for (const control of ['\u0000', '\u0008', '\u000b', '\u001f', '\u007f'])
      expect(multiLineText().safeParse(`a${control}b`).success, JSON.stringify(control)).toBe(
        false,
      );
  });

  it('names the first field of a request part holding a control character', () => {
    expect(controlCharacterPath({ a: 'x', b: ['ok', 'n\u0000'] })).toBe('b.1');
    expect(controlCharacterPath({ 'filters[group]': 'g\u0000' })).toBe('filters.group');
    expect(controlCharacterPath({ ['k\u0000']: 'v' })).toBe('k\u0000');
    expect(controlCharacterPath({ note: 'two\nlines\tand tab' })).toBeNull();
    expect(controlCharacterPath(Buffer.from('\u0000'))).toBeNull();
  });
});
