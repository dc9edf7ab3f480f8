#!/usr/bin/env node
// `npm test`: system set-up, then every check and test (typecheck, lint, format, unit + integration,
// browser) through `npm run validate`, the same script developers run.
import { spawnSync } from 'node:child_process';
import { ensureSystemPackages } from './system-setup.mjs';

ensureSystemPackages();
const started = Date.now();
const result = spawnSync('npm', ['run', 'validate'], { stdio: 'inherit' });
const seconds = Math.round((Date.now() - started) / 1000);
if (result.status === 0) console.log(`\nAll checks and tests passed in ${seconds} s.`);
else console.error(`\nChecks or tests failed (exit code ${result.status}) after ${seconds} s.`);
process.exit(result.status ?? 1);
