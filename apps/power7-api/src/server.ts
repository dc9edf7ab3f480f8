import { ConfigError } from '@pa/server-kit/config';
import { buildPower7App } from './app';
import { loadPower7Config } from './config';

async function main() {
  const config = loadPower7Config();
  const app = await buildPower7App(config);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void app.close().then(() => process.exit(0));
    });
  }
  await app.listen({ host: config.HOST, port: config.POWER7_PORT });
  console.log(`Power 7 API: http://${config.HOST}:${config.POWER7_PORT}/ (API docs /api/docs)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
