import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

/**
 * The dev server (`yarn dev`) injects React Fast Refresh's inline preamble and talks to its
 * client over a WebSocket; the strict CSP of renderer/index.html allows neither. In `serve`
 * mode only, let inline scripts and the dev server's socket through. Builds keep the strict CSP.
 */
function devCsp(): Plugin {
  return {
    name: 'stepwise-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws://localhost:* http://localhost:*"),
  };
}

/**
 * One build for every process. The main side emits five files under out/main/: the Electron
 * main process, the agent-runner (one process per run), the mcp-host, the CLI and the host's
 * template worker thread.
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled, not loaded from node_modules: every run starts a runner process, and loading
      // these packages' hundreds of small ES modules from disk cost ~10 times more CPU per run
      // than one bundled chunk (bench: `yarn bench react`, runner start-up).
      externalizeDeps: { exclude: ['@sinclair/typebox', 'jsonc-parser'] },
      sourcemap: false,
      rollupOptions: {
        input: {
          index: resolve('main/electron/index.ts'),
          'agent-runner': resolve('agent-runner/index.ts'),
          'mcp-host': resolve('mcp-host/index.ts'),
          cli: resolve('main/cli/index.ts'),
          'template-worker': resolve('shared/template/worker.node.ts'),
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
    plugins: [react(), devCsp()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});
