#!/usr/bin/env node
// The compiled CLI's entry point (scripts/build-services.mjs → packages/power7-engine/dist/cli.mjs).
// `./early-start` first: its module starts the scan workers before the rest of the bundle is evaluated.
import './early-start';
import { main } from './main';

process.exitCode = await main(process.argv.slice(2));
