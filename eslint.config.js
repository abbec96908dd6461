// Lint, and the import boundaries between processes (docs/architecture.md#layout). A boundary break fails CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', '.yarn/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'The renderer is sandboxed: no Node built-ins.' })),
          patterns: [
            { group: ['node:*'], message: 'The renderer is sandboxed: no Node built-ins.' },
            { group: ['**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/preload/**', 'electron'], message: 'The renderer may import only shared/ (docs/architecture.md#layout).' },
          ],
        },
      ],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.node.ts', 'shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'shared/ is browser-safe: Node-only code goes in a *.node.ts module.' })),
          patterns: [
            { group: ['node:*'], message: 'shared/ is browser-safe: Node-only code goes in a *.node.ts module.' },
            { group: ['electron', '**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/preload/**', '**/renderer/**'], message: 'shared/ imports nothing process-specific (docs/architecture.md#layout).' },
          ],
        },
      ],
    },
  },
  // A *.node.ts module is imported as `./x.node.js`: tsx (the CLI and runner from source) takes a
  // bare `./x.node` for a native addon and does not look for the .ts file.
  {
    files: ['shared/**/*.node.ts'],
    rules: restrict(['electron', '**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/preload/**', '**/renderer/**'], 'shared/ imports nothing process-specific (docs/architecture.md#layout).'),
  },
  {
    files: ['agent-runner/**/*.ts'],
    rules: restrict(['electron', '**/main/**', '**/mcp-host/**', '**/preload/**', '**/renderer/**'], 'agent-runner/ may import only shared/ and Node (docs/architecture.md#layout).'),
  },
  {
    files: ['mcp-host/**/*.ts'],
    rules: restrict(['electron', '**/main/**', '**/agent-runner/**', '**/preload/**', '**/renderer/**'], 'mcp-host/ may import only shared/ and Node (docs/architecture.md#layout).'),
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/**/*.test.ts'],
    rules: restrict(['**/renderer/**', '**/preload/**', '**/agent-runner/**', '**/mcp-host/**'], 'main/ may import only shared/ (docs/architecture.md#layout); it starts the runner and the mcp-host by file path, never by import.'),
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'preload imports only electron and shared types.' })),
          patterns: [
            { group: ['node:*'], message: 'preload imports only electron and shared types.' },
            { group: ['**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/renderer/**'], message: 'preload imports only electron and shared types.' },
            // Any package but electron, and any value (not type) import from shared/, is refused.
            { regex: '^(?!electron$|\\.\\.?/)', message: 'preload imports only electron and shared types.' },
            { group: ['../shared/**'], allowTypeImports: true, message: 'preload imports only types from shared/.' },
          ],
        },
      ],
    },
  },
);
