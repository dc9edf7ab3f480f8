// `npm start` (scripts/start.mjs) restarts a service that dies, and gives up past RESTART_LIMIT.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, tempDir } from './helper';
import { startProduct } from './product-process';

describe('npm start', () => {
  let dir = '';
  afterAll(async () => {
    if (dir) await cleanup(dir);
  });

  it('restarts a Power 7 service killed with -9 while the portal stays up, then gives up past the limit', async () => {
    dir = await tempDir('start-script-');
    // fresh: the services create their databases, as on a new machine
    const product = await startProduct(dir, { RESTART_LIMIT: '1' }, { fresh: true });
    try {
      const portal = product.childRunning('portal-api/dist/server.mjs');
      process.kill(product.childRunning('power7-api/dist/server.mjs'), 'SIGKILL');
      await product.printed(
        'power7 service stopped (SIGKILL); restarting it in 1 s (restart 1 of 1',
      );
      await product.printed('power7 service restarted and ready.');
      expect((await fetch(`${product.power7}/api/ready/`)).status).toBe(200);
      // the portal was never stopped
      expect(product.childRunning('portal-api/dist/server.mjs')).toBe(portal);
      expect((await fetch(`${product.portal}/api/ready/`)).status).toBe(200);

      process.kill(product.childRunning('power7-api/dist/server.mjs'), 'SIGKILL');
      expect(await product.exited).not.toBe(0);
      expect(product.output()).toContain(
        'power7 service stopped (SIGKILL) after 1 restarts within 60 s; giving up and stopping everything.',
      );
      await expect(fetch(`${product.portal}/api/live/`)).rejects.toThrow();
    } finally {
      await product.stop();
    }
  }, 300_000);
});
