import { defineConfig } from 'drizzle-kit';

// `npx drizzle-kit generate --config apps/power7-api/drizzle.config.ts` writes a new migration after
// a schema change; the service applies pending ones at start (src/db/client.ts). The migrations
// table lives in its own schema so a PostgreSQL server shared with the portal keeps both apart.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
  migrations: { schema: 'power7_drizzle' },
});
