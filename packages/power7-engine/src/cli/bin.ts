#!/usr/bin/env node
// The compiled CLI's entry point (scripts/build-services.mjs → packages/power7-engine/dist/cli.mjs).
// `./early-start` first: it starts the scan workers; the rest of the CLI (`./main`, a chunk of its own
// in the build) is loaded only then, while they start.
import './early-start';

const { main } = await import('./main');

process.exitCode = await main(process.argv.slice(2));
