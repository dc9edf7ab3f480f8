import { describe, expect, it } from 'vitest';
import {
  controlCharacterPath,
  multiLineText,
  singleLineText,
  unsafeTextAt,
  visibleFileName,
} from './text';
import { passwordSchema } from './accounts';
import { userNameSchema } from './users';

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

  it('refuses lone surrogates, bidi controls and zero-width characters in every text field', () => {
    const bad = ['\ud800', 'a\udc00b', '\u202e', '\u2066', '\u200e', '\u200f', '\u200b', '\u200d'];
    for (const text of [...bad, '\u2060', '\ufeff'].map((c) => `Ad${c}a`)) {
      expect(singleLineText().safeParse(text).success, JSON.stringify(text)).toBe(false);
      expect(multiLineText().safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
    expect(singleLineText().safeParse('Ada 😀 Lovelace').success).toBe(true);
  });

  it('keeps combining marks but stores them in NFC', () => {
    const decomposed = 'Zoe\u0301 Bj\u006f\u0308rk';
    expect(singleLineText().parse(decomposed)).toBe('Zoé Björk');
    expect(singleLineText().parse(decomposed)).toBe(decomposed.normalize('NFC'));
  });

  it('allows sign-in names of ASCII letters, digits and ._- only, refusing what trim would hide', () => {
    expect(userNameSchema.parse(' ada.l-1_ ')).toBe('ada.l-1_');
    for (const name of [
      '\ufeffadmin',
      'admin\u200b',
      'adm\u202eni',
      'zoe\u0301',
      'ädmin',
      'ad min',
    ])
      expect(userNameSchema.safeParse(name).success, JSON.stringify(name)).toBe(false);
  });

  it('the request backstop names lone surrogates too, and leaves invisible characters to the schemas', () => {
    expect(unsafeTextAt({ user: { first: 'x\ud800' } })).toEqual({
      field: 'user.first',
      message: 'must not contain broken characters (unpaired surrogates)',
    });
    expect(unsafeTextAt({ ['k\udfff']: 'v' })?.field).toBe('k\udfff');
    expect(unsafeTextAt({ password: 'family 👨\u200d👩\u200d👧', emoji: '😀' })).toBeNull();
  });

  it('keeps a new password exactly as typed (no NFC, joiners allowed), refusing only what cannot be encoded', () => {
    const typed = 'Zoe\u0301 👨\u200d👩\u200d👧 passphrase';
    expect(passwordSchema.parse(typed)).toBe(typed);
    expect(passwordSchema.safeParse('long enough \ud800 pass').success).toBe(false);
    expect(passwordSchema.safeParse('long enough \u0000 pass').success).toBe(false);
  });
});

describe('visibleFileName', () => {
  it('removes bidi controls and zero-width characters, and nothing else', () => {
    expect(visibleFileName('invoice\u202Efdp.csv')).toBe('invoicefdp.csv');
    const invisible = [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
    ];
    for (const c of invisible)
      expect(visibleFileName(`a${c}b.csv`), JSON.stringify(c)).toBe('ab.csv');
    expect(visibleFileName(invisible.join(''))).toBe('');
    // real names keep their letters, marks and spaces; composed the one way
    expect(visibleFileName('Müller – März 2026 (نسخة).xlsx')).toBe(
      'Müller – März 2026 (نسخة).xlsx',
    );
    expect(visibleFileName('Mu\u0308ller.csv')).toBe('Müller.csv');
  });
});
