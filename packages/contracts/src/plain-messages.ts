import { z } from 'zod';
import type * as core from 'zod/v4/core';

/**
 * Validation messages in plain words for every schema that does not write its own: zod's defaults
 * read "Too small: expected number to be >=0" or `Invalid option: expected one of "a"|"b"`. The
 * field is named beside the message (the envelope's `errors[].field`, a form's label), so each
 * message says only what the value must be. Set once for the one zod instance the workspace shares;
 * imported for its effect by `envelope.ts`, which every service and the web app load.
 */
type Issue = core.$ZodRawIssue;

const count = (n: number | bigint, one: string, many: string) =>
  `${n.toLocaleString('en')} ${Number(n) === 1 ? one : many}`;

const KIND_OF: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
};

export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required.';
      return `Must be ${KIND_OF[issue.expected] ?? issue.expected}.`;
    case 'too_small': {
      const { minimum, inclusive, origin } = issue;
      if (origin === 'string')
        return `Must be at least ${count(minimum, 'character', 'characters')} long.`;
      if (origin === 'array' || origin === 'set')
        return `Give at least ${count(minimum, 'item', 'items')}.`;
      return inclusive
        ? `Must be at least ${minimum.toLocaleString('en')}.`
        : `Must be more than ${minimum.toLocaleString('en')}.`;
    }
    case 'too_big': {
      const { maximum, inclusive, origin } = issue;
      if (origin === 'string')
        return `Must be at most ${count(maximum, 'character', 'characters')} long.`;
      if (origin === 'array' || origin === 'set')
        return `Give at most ${count(maximum, 'item', 'items')}.`;
      return inclusive
        ? `Must be at most ${maximum.toLocaleString('en')}.`
        : `Must be less than ${maximum.toLocaleString('en')}.`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `Must be ${JSON.stringify(issue.values[0])}.`
        : `Must be one of ${issue.values.map((v: unknown) => JSON.stringify(v)).join(', ')}.`;
    case 'invalid_format':
      return issue.format === 'email'
        ? 'Must be an email address.'
        : `Must be a valid ${issue.format}.`;
    case 'not_multiple_of':
      return `Must be a multiple of ${String(issue.divisor)}.`;
    case 'unrecognized_keys':
      return `Unknown ${issue.keys.length === 1 ? 'key' : 'keys'}: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
      return 'Is not in a form this field accepts.';
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });
