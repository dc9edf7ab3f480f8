import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config apps/portal-api/drizzle.config.ts` writes a new migration after
// a schema change; the service applies pending ones at start (src/db/client.ts).
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
});
