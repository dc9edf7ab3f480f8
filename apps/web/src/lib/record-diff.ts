/**
 * Field-level comparison of form values and records: the PATCH body (only what the person changed)
 * and, after a 409, what someone else changed meanwhile.
 */

const same = (a: unknown, b: unknown) => {
  if (Array.isArray(a) && Array.isArray(b))
    return [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
  return a === b;
};

/** The fields of `values` that differ from `base` (arrays compare as sets). */
export function changedFields<V extends Record<string, unknown>>(
  values: V,
  base: Partial<Record<keyof V, unknown>>,
): Partial<V> {
  const out: Partial<V> = {};
  for (const key of Object.keys(values) as (keyof V)[]) {
    if (!same(values[key], base[key])) out[key] = values[key];
  }
  return out;
}

/** Fields (among `fields`) whose value differs between two versions of a record. */
export function fieldsChangedBetween<R extends Record<string, unknown>>(
  before: R,
  after: R,
  fields: readonly (keyof R)[],
): (keyof R)[] {
  return fields.filter((field) => !same(before[field], after[field]));
}
