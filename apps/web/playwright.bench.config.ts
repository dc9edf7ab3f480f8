import config from './playwright.config';

/** The browser benchmark (`npx playwright test -c apps/web/playwright.bench.config.ts`): same services, own folder. */
export default { ...config, testDir: './bench', testMatch: '*.bench.ts', timeout: 900_000 };
