import { defineConfig } from '@playwright/test';
import { chromiumPath, chromiumArgs } from './tests/e2e/chromium';

/** Browser end-to-end tests: the real renderer in Debian Chromium through the web host. */
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    launchOptions: { executablePath: chromiumPath(), args: chromiumArgs },
    screenshot: 'only-on-failure',
    viewport: { width: 1440, height: 900 },
    trace: 'off',
  },
});
