import { expect } from 'vitest';

/**
 * A strict parser of the Prometheus text format (0.0.4) for the tests' scrapes. Written here because
 * the maintained npm parser (parse-prometheus-text-format) merges every labelled histogram series
 * into one and accepts malformed lines; prom-client only writes the format.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_]\w*)="((?:[^"\\\n]|\\[\\"n])*)"(,|$)/;
const COMMENT = new RegExp(`^# (HELP|TYPE) (${NAME}) (.*)$`);
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  if (text === 'NaN') return NaN;
  if (!/^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw new Error(`bad value: ${line}`);
  return Number(text);
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (!match) throw new Error(`bad labels: ${line}`);
    const [all, name, raw] = match as unknown as [string, string, string];
    if (name in labels) throw new Error(`label ${name} twice: ${line}`);
    labels[name] = raw.replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(all.length);
  }
  return labels;
}

/** The family a sample line belongs to: its own name, or a histogram/summary's before its suffix. */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  const own = families.get(name);
  if (own) return own;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const family = families.get(base);
  return family && (family.type === 'histogram' || family.type === 'summary') ? family : undefined;
}

/** Parses a scrape; throws on any line a Prometheus server would reject or misread. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const comment = COMMENT.exec(line);
      if (!comment) continue; // other comments are allowed
      const [, kind, name, rest] = comment as unknown as [string, string, string, string];
      const family = families.get(name) ?? { type: 'untyped', help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type: ${line}`);
        family.type = rest as Family['type'];
      } else family.help = rest;
      families.set(name, family);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`bad sample line: ${line}`);
    const [, name, labelText, valueText] = match as unknown as [
      string,
      string,
      string | undefined,
      string,
    ];
    const family = familyOf(name, families);
    if (!family) throw new Error(`sample of an undeclared metric: ${line}`);
    const labels = parseLabels(labelText ?? '', line);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${line}`);
    seen.add(key);
    family.samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  return families;
}

/** Label values that identify one user, session or request (a UUID, a long number). */
const ID_LIKE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{6,}/i;

/** A `/metrics` answer parsed, after checking that no label value holds an id. */
export function parseMetrics(text: string): Map<string, Family> {
  const families = parsePrometheusText(text);
  for (const [name, family] of families)
    for (const sample of family.samples)
      for (const [label, value] of Object.entries(sample.labels))
        expect(`${name}{${label}="${value}"}`).not.toMatch(ID_LIKE);
  return families;
}

/** The value of the one sample named `name` (default: the family's) whose labels include `labels`. */
export function valueOf(
  families: Map<string, Family>,
  family: string,
  labels: Record<string, string> = {},
  name = family,
): number {
  const samples = families.get(family)?.samples ?? [];
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length !== 1)
    throw new Error(`${found.length} samples of ${name} with ${JSON.stringify(labels)}`);
  return found[0]!.value;
}
