#!/usr/bin/env node
// `npm run admin -- …`: the portal's admin command (apps/portal-api/src/cli/admin.ts), compiled as the
// services are (scripts/build-services.mjs; built here first when missing or older than its sources).
// It starts in ~0.4 CPU-s where compiling its TypeScript through tsx at every run took ~1.2.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildServices, servicesStale } from './build-services.mjs';

if (servicesStale()) {
  const ms = await buildServices();
  // on stderr: what the command prints on stdout stays its own
  console.error(`Built the services in ${Math.round(ms)} ms.`);
}
await import(
  pathToFileURL(path.resolve(import.meta.dirname, '../apps/portal-api/dist/admin.mjs')).href
);
