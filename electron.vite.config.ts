import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';

/**
 * One build for every process. The main side emits four files under out/main/:
 * the Electron main process, the agent-runner (one process per run), the mcp-host and the CLI.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      sourcemap: false,
      rollupOptions: {
        input: {
          index: resolve('main/electron/index.ts'),
          'agent-runner': resolve('agent-runner/index.ts'),
          'mcp-host': resolve('agent-runner/mcp-host/index.ts'),
          cli: resolve('main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve('preload/index.ts') } },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
