/**
 * The compiled CLI's first step (imported first by `bin.ts`, which loads the rest of the CLI only
 * afterwards, from a chunk of its own): the scan workers of `analyze` and `limit` start here, and
 * their boot (a thread, an isolate, the worker bundle loaded: ~50 ms) overlaps the loading of the
 * CLI's code and everything the main thread does before the file's ranges are handed out. This
 * module imports nothing of the engine but the worker's start (`early-workers.ts`). A start hint
 * only: `--workers` is read loosely here, and the command checks every argument itself afterwards;
 * the workers are unref'd while idle, so a command that ends early (a bad flag) is not held up by them.
 */
import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { startEarlyScanWorkers } from '../parallel/early-workers';

/** The scan workers a command line will ask for (0: none, or not a command that analyses). */
export function earlyWorkerCount(argv: readonly string[]): number {
  const [command, ...rest] = argv;
  if (command !== 'analyze' && command !== 'limit') return 0;
  // the last `--workers N` or `--workers=N` (null: none; undefined: a flag without its value)
  let value: string | null | undefined = null;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--workers') value = rest[i + 1];
    else if (arg.startsWith('--workers=')) value = arg.slice('--workers='.length);
  }
  if (value === undefined || value === '') return 0;
  const n = value === null ? availableParallelism() : Number(value);
  return Number.isInteger(n) && n > 1 && n <= 64 ? n : 0;
}

/**
 * V8 compiles a hot kernel on a background thread by default while the kernel keeps running
 * unoptimised; on two cores that the workers and this thread already fill, that background thread
 * waits its turn, and a kernel that runs once per process (every kernel here) spends much of its run
 * waiting for its own optimised code. Compiled on the thread that asks instead: the same code, sooner.
 * Set before the workers start (a worker's isolate reads the flags as it starts).
 * (`--no-lazy-feedback-allocation`, tried in session 22: pushDown and zetaLayer were compiled once
 * per thread instead of twice, but the scan's kernel three times instead of once: more compiling.)
 */
export const CLI_V8_FLAGS = ['--no-concurrent-recompilation', '--no-concurrent-osr'];

const argv = process.argv.slice(2);
if (argv[0] === 'analyze' || argv[0] === 'limit')
  for (const f of CLI_V8_FLAGS) setFlagsFromString(f);
const n = earlyWorkerCount(argv);
// one analysis and the process ends: no kernel warm-up (see StartOptions); as many as the pool keeps
if (n > 1) startEarlyScanWorkers(Math.min(n, availableParallelism()));
