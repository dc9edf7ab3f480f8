import type { TestProject } from 'vitest/node';
import { startTestPostgres } from '@pa/server-kit/testing/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the throwaway PostgreSQL server of this test run (its `postgres` database). */
    postgresUrl: string;
  }
}

/** Starts one real PostgreSQL server for the whole portal test run; each test app gets its own database. */
export default async function setup(project: TestProject) {
  const server = await startTestPostgres();
  project.provide('postgresUrl', server.url);
  return async () => {
    await server.stop();
  };
}
