import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Unit tests sit beside their source; integration tests in tests/integration/<area>/, checks
    // over the whole repository in tests/repo/ (README, Development; tests/repo/test-layout.test.ts).
    // Browser e2e specs live in tests/e2e and run under Playwright, never under vitest.
    include: ['{shared,main,agent-runner,mcp-host,preload,renderer,bench,tests/integration,tests/repo}/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'tests/e2e/**', 'out/**'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
