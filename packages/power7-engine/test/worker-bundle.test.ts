import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The scan worker and the CLI load only what they run (issue #27): each thread compiled and loaded
// all of zod (~0.1 s) through @pa/contracts before the game's limits moved to power7-limits.ts.

const src = join(import.meta.dirname, '../src');

/** The npm packages a bundle of `entry` imports, bundled as scripts/build-services.mjs does. */
async function npmImports(entry: string): Promise<string[]> {
  const found = new Set<string>();
  await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    logLevel: 'silent',
    plugins: [
      {
        name: 'npm-imports',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => {
            if (args.path.startsWith('@pa/')) return undefined;
            if (!args.path.startsWith('node:')) found.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
    ],
  });
  return [...found].sort();
}

describe('what the scan worker and the CLI load', () => {
  it('the scan worker imports no npm package', async () => {
    expect(await npmImports(join(src, 'parallel/scan-worker.ts'))).toEqual([]);
  });

  it('the CLI does not import zod', async () => {
    expect(await npmImports(join(src, 'cli/bin.ts'))).not.toContain('zod');
  });
});
