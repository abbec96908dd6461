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
        // Shared chunks sit next to the entries: code that finds its siblings through
        // import.meta.url (process/entries.ts, web/seed.ts, electron/paths.ts) must run from out/main/.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  // A sandboxed preload cannot be an ES module: emit CommonJS as out/preload/index.cjs
  // (main/electron/paths.ts loads it by that name). electron-vite reads `rolldownOptions`.
  preload: {
    build: {
      outDir: 'out/preload',
      sourcemap: false,
      rolldownOptions: {
        input: { index: resolve('preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: 'chunks/[name]-[hash].cjs' },
      },
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
