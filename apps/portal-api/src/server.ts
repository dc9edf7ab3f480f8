import { ConfigError } from '@pa/server-kit/config';
import { buildPortalApp } from './app';
import { loadPortalConfig } from './config';

async function main() {
  const config = loadPortalConfig();
  const app = await buildPortalApp(config);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ host: config.HOST, port: config.PORTAL_PORT });
  console.log(
    `Power Analyzer web app and portal API: http://${config.HOST}:${config.PORTAL_PORT}/ (API docs /api/docs)`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
