#!/usr/bin/env node
// `npm run power7 -- …`: the compiled Power 7 CLI, rebuilt first when its sources changed
// (scripts/build-services.mjs). `node packages/power7-engine/dist/cli.mjs …` skips
// the check.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServices, servicesStale } from './build-services.mjs';

if (servicesStale()) await buildServices();
await import(
  pathToFileURL(path.resolve(import.meta.dirname, '../packages/power7-engine/dist/cli.mjs')).href
);
