import { z } from 'zod';

/**
 * Text a field can hold. Control characters (C0 and DEL) have no place in a name, a search or an
 * email, and a NUL cannot even be stored (PostgreSQL refuses it); only a multi-line field keeps tab
 * and line breaks. Shared by the web app's forms and the services' schemas, so both refuse the same.
 */
/* eslint-disable no-control-regex -- matching control characters is the point here */
const SINGLE_LINE = /^[^\u0000-\u001f\u007f]*$/;
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const ANY_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/* eslint-enable no-control-regex */

const MAX_DEPTH = 32;

export const CONTROL_CHARACTERS_MESSAGE = 'must not contain control characters';

/** A one-line text field: no control character at all. */
export const singleLineText = () => z.string().regex(SINGLE_LINE, CONTROL_CHARACTERS_MESSAGE);

/** A multi-line text field: tab, line feed and carriage return allowed, other controls refused. */
export const multiLineText = () => z.string().regex(MULTI_LINE, CONTROL_CHARACTERS_MESSAGE);

/**
 * The first string in a parsed request part (query, params, JSON body) holding a control character
 * no field accepts, as its dotted path (`filters.group`); null when there is none. The server's
 * backstop for inputs no schema names.
 */
export function controlCharacterPath(value: unknown, path: string[] = []): string | null {
  // Deeper than any schema goes: the schema refuses it, and the walk stays off the stack limit.
  if (path.length > MAX_DEPTH) return null;
  if (typeof value === 'string')
    return ANY_CONTROL.test(value) ? path.join('.') || 'request' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = controlCharacterPath(item, [...path, String(index)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      // A query's bracket keys (`filters[group]`) are named the way the schemas name them.
      const keyPath = [...path, key.replace(/\[([^\]]*)\]/g, '.$1')];
      if (ANY_CONTROL.test(key)) return keyPath.join('.');
      const found = controlCharacterPath(item, keyPath);
      if (found !== null) return found;
    }
  }
  return null;
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
