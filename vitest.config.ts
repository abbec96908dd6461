import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Browser e2e specs live in tests/e2e and run under Playwright, never under vitest.
    include: ['{shared,main,agent-runner,mcp-host,preload,renderer,tests/unit,tests/integration}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'tests/e2e/**', 'out/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
