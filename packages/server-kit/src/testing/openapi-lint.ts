import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ERROR_ENVELOPE } from '../openapi';

const run = promisify(execFile);
const redocly = fileURLToPath(import.meta.resolve('@redocly/cli/bin/cli.js'));
/** The repository's rule set (redocly.yaml at the root: `recommended`, minus what cannot apply). */
const config = path.resolve(import.meta.dirname, '../../../../redocly.yaml');

export interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: { pointer?: string }[];
}

/** Lints an OpenAPI document with `redocly lint`; returns every problem it reports. */
export async function lintOpenApi(document: unknown): Promise<LintProblem[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'pa-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document));
    // it exits 1 when it finds errors: the report on stdout is what counts
    const { stdout } = await run(
      process.execPath,
      [redocly, 'lint', file, '--config', config, '--format=json'],
      {
        maxBuffer: 64 * 1024 * 1024,
        // a test run sends nothing anywhere
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: LintProblem[] };
    return report.problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

interface Operation {
  security?: unknown[];
  parameters?: { in: string; name: string; example?: unknown; examples?: unknown }[];
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

const envelopeRef = `#/components/schemas/${ERROR_ENVELOPE}`;

/**
 * What the document leaves out, one line per gap: each operation documents its success answer and
 * the envelope for a failure on our side; one that takes input or a sign-in documents at least one
 * 4xx envelope; every path parameter carries an example.
 */
export function openApiGaps(document: { paths: Record<string, Record<string, Operation>> }) {
  const gaps: string[] = [];
  for (const [url, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${url}`;
      const statuses = Object.keys(operation.responses);
      const isEnvelope = (status: string) =>
        operation.responses[status]?.content?.['application/json']?.schema?.$ref === envelopeRef;
      if (!statuses.some((status) => status.startsWith('2'))) gaps.push(`${name}: no 2xx answer`);
      if (!isEnvelope('500')) gaps.push(`${name}: no 500 envelope`);
      const takesInput =
        (operation.parameters?.length ?? 0) > 0 ||
        operation.requestBody !== undefined ||
        (operation.security?.length ?? 0) > 0;
      if (takesInput && !statuses.some((status) => status.startsWith('4') && isEnvelope(status))) {
        gaps.push(`${name}: no 4xx envelope`);
      }
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === 'path' && parameter.example === undefined && !parameter.examples) {
          gaps.push(`${name}: path parameter ${parameter.name} has no example`);
        }
      }
    }
  }
  return gaps;
}

type Document = Parameters<typeof openApiGaps>[0];

/** What the suite needs of a built service: Fastify's `inject`. */
interface Service {
  inject(request: { url: string }): PromiseLike<{ statusCode: number; json(): unknown }>;
}

/**
 * The tests of a service's OpenAPI document, fetched from the built app (`service()`, once it is
 * built): Redocly finds no error, and the document leaves no answer, envelope or example out.
 */
export function openApiSuite(service: () => Service) {
  const load = async () => {
    const answer = await service().inject({ url: '/api/docs/json' });
    expect(answer.statusCode).toBe(200);
    return answer.json() as Document;
  };

  // Redocly starts a Node process of its own: seconds on a busy machine.
  it('passes `redocly lint` without an error', { timeout: 120_000 }, async () => {
    const problems = await lintOpenApi(await load());
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    console.info(
      `redocly lint: ${warnings.length} warning(s)`,
      warnings.map((w) => `${w.ruleId} ${w.location?.[0]?.pointer ?? ''}`),
    );
    expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it('documents every answer of every operation, in the envelope, and examples of path parameters', async () => {
    expect(openApiGaps(await load())).toEqual([]);
  });
}
