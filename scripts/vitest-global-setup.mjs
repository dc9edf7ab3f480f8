// Vitest's global set-up for every project (vitest.config.ts): the process tests start the compiled
// services and CLI (`apps/*/dist`, `packages/power7-engine/dist`), as `npm start` and `npm run power7`
// do, so they are built first when older than their sources — once, before any test file runs (a
// rebuild while a test starts the product could pull a chunk from under it).
import { buildServices, servicesStale } from './build-services.mjs';

export default async function setup() {
  if (servicesStale()) {
    const ms = await buildServices();
    console.log(`Built the services and the CLI for the process tests in ${Math.round(ms)} ms.`);
  }
}
