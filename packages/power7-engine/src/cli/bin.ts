#!/usr/bin/env node
// The compiled CLI's entry point (scripts/build-services.mjs → packages/power7-engine/dist/cli.mjs).
import { main } from './main';

process.exitCode = await main(process.argv.slice(2));
