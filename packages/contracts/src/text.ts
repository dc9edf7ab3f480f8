import { z } from 'zod';

/**
 * Text a field can hold. Control characters (C0 and DEL) have no place in a name, a search or an
 * email, and a NUL cannot even be stored (PostgreSQL refuses it); only a multi-line field keeps tab
 * and line breaks. A lone UTF-16 surrogate is no character at all (it cannot be encoded), and the
 * invisible characters — bidi controls that reorder what a reader sees (U+202A–U+202E, U+2066–U+2069,
 * U+200E/U+200F) and zero-width ones (U+200B–U+200D, U+2060, U+FEFF) — let two names look alike or
 * one look like another. Combining marks stay (real names need them); text is kept in NFC, so the
 * same name typed two ways is stored one way. Shared by the web app's forms and the services'
 * schemas, so both refuse the same.
 */
/* eslint-disable no-control-regex -- matching these characters is the point here */
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/* eslint-enable no-control-regex */
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

const MAX_DEPTH = 32;

export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';
const LONE_SURROGATE_MESSAGE = 'must not contain broken characters (unpaired surrogates)';
const INVISIBLE_CHARACTERS_MESSAGE = 'must not contain invisible or text-direction characters';

/**
 * What a kept file name loses: the bidi controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F and the
 * Arabic letter mark U+061C) and the zero-width characters (U+200B–U+200D, U+2060, U+FEFF).
 */
const INVISIBLE_IN_FILE_NAMES = /[\u061c\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;

/**
 * A file name as it may be kept and shown: its invisible characters removed, so that e.g.
 * `invoice\u202Efdp.csv` cannot show as `invoicevsc.pdf`, and in NFC. A name is what the sender's
 * system called the file, not text a person typed into a field here: it is cleaned rather than
 * refused. Used by the Power 7 service where it keeps a name (the session, its audit record) and by
 * the web app where it shows one.
 */
export function visibleFileName(name: string): string {
  return name.replace(INVISIBLE_IN_FILE_NAMES, '').normalize('NFC');
}

/** Whether text holds a lone surrogate (no character: it cannot be encoded as UTF-8). */
const hasLoneSurrogate = (text: string) => LONE_SURROGATE.test(text);

/** Text that can be encoded: `lines` is the control-character rule, lone surrogates refused. */
const encodableText = (lines: RegExp) =>
  z
    .string()
    .regex(lines, CONTROL_CHARACTERS_MESSAGE)
    .refine((text) => !hasLoneSurrogate(text), LONE_SURROGATE_MESSAGE);

/** The rules every text field shares, then NFC. */
const safeText = (lines: RegExp) =>
  encodableText(lines)
    .refine((text) => !INVISIBLE.test(text), INVISIBLE_CHARACTERS_MESSAGE)
    .normalize('NFC');

/**
 * A one-line secret (a new password): no control character or lone surrogate, but every other
 * character kept exactly as typed, since sign-in compares what is typed then with what was hashed.
 */
export const singleLineSecret = () => encodableText(SINGLE_LINE);

/** A one-line text field: no control, broken or invisible character; kept in NFC. */
export const singleLineText = () => safeText(SINGLE_LINE);

/** A multi-line text field: tab, line feed and carriage return allowed, other controls refused. */
export const multiLineText = () => safeText(MULTI_LINE);

/** What no field of any request accepts: a control character (bar tab and line breaks) or a lone surrogate. */
function unsafeTextProblem(text: string): string | null {
  if (ANY_CONTROL.test(text)) return CONTROL_CHARACTERS_MESSAGE;
  if (hasLoneSurrogate(text)) return LONE_SURROGATE_MESSAGE;
  return null;
}

/**
 * The first string in a parsed request part (query, params, JSON body) holding text no field
 * accepts (a control character other than tab and line breaks, or a lone surrogate), as its dotted
 * path (`filters.group`) and the rule it breaks; null when there is none. The server's backstop for
 * inputs no schema names (invisible characters are left to the schemas: a password may hold them).
 */
export function unsafeTextAt(
  value: unknown,
  path: string[] = [],
): { field: string; message: string } | null {
  // Deeper than any schema goes: the schema refuses it, and the walk stays off the stack limit.
  if (path.length > MAX_DEPTH) return null;
  if (typeof value === 'string') {
    const message = unsafeTextProblem(value);
    return message ? { field: path.join('.') || 'request', message } : null;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = unsafeTextAt(item, [...path, String(index)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // A query's bracket keys (`filters[group]`) are named the way the schemas name them.
      const keyPath = [...path, key.replace(/\[([^\]]*)\]/g, '.$1')];
      const message = unsafeTextProblem(key);
      if (message) return { field: keyPath.join('.'), message };
      const found = unsafeTextAt(item, keyPath);
      if (found !== null) return found;
    }
  }
  return null;
}

/** `unsafeTextAt`'s field alone (kept for its callers). */
export function controlCharacterPath(value: unknown): string | null {
  return unsafeTextAt(value)?.field ?? null;
}

/**
 * JSON objects and parsed query strings (whose parser builds them on a prototype-less base), not
 * Buffers or streams: uploads are checked where they are read.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return (
    prototype === Object.prototype ||
    prototype === null ||
    Object.getPrototypeOf(prototype as object) === null
  );
}
