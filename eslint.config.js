// Lint, and the import boundaries between processes (docs/architecture.md#layout). A boundary break fails CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { createNodeResolver } from 'eslint-plugin-import-x';
import { builtinModules } from 'node:module';
import { noCycleIncludingTypes } from './scripts/lint-no-cycle.mjs';

/**
 * A *.node.ts module is imported as `./x.node.js`: tsx (the host, CLI and runner from sources)
 * takes a bare `./x.node` for a native addon and does not find the .ts file, so the process fails
 * to start while type checks and bundles pass.
 */
const nodeModuleSuffix = {
  meta: { type: 'problem', schema: [], messages: { suffix: "Import '{{ source }}' as '{{ source }}.js': tsx takes a bare '.node' for a native addon." } },
  create(context) {
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source === 'string' && source.startsWith('.') && source.endsWith('.node')) context.report({ node: node.source, messageId: 'suffix', data: { source } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
/** `no-restricted-imports` refusing `patterns` with `message`, and the `extra` pattern entries. */
const restrict = (patterns, message, ...extra) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }, ...extra] }],
});

/** `no-restricted-imports` for code without Node: built-ins refused with `nodeMessage`, and the `patterns` entries. */
const withoutNode = (nodeMessage, ...patterns) => [
  'error',
  {
    paths: nodeBuiltins.map((name) => ({ name, message: nodeMessage })),
    patterns: [{ group: ['node:*'], message: nodeMessage }, ...patterns],
  },
];

/** The renderer's imports (a sandboxed page: shared/ only), with `extra` pattern entries. */
const rendererImports = (...extra) =>
  withoutNode(
    'The renderer is sandboxed: no Node built-ins.',
    { group: ['**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/preload/**', 'electron'], message: 'The renderer may import only shared/ (docs/architecture.md#layout).' },
    ...extra,
  );

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
    // No import cycles, type-only imports included (#14): a module and what it imports form a
    // hierarchy. Relative imports are extensionless `.ts` / `.tsx` paths, or `./x.node.js` for
    // the `.ts` file (see the *.node.ts block below).
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { stepwise: { rules: { 'no-cycle': noCycleIncludingTypes, 'node-module-suffix': nodeModuleSuffix } } },
    settings: {
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'],
    },
    rules: { 'stepwise/no-cycle': ['error', { ignoreExternal: true }], 'stepwise/node-module-suffix': 'error' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': rendererImports(),
    },
  },
  {
    // Layers inside the renderer: ui/ and text/ sit below state/ and features/.
    files: ['renderer/src/ui/**/*.{ts,tsx}', 'renderer/src/text/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': rendererImports({
        group: ['**/state/**', '**/features/**'],
        message: 'renderer/src/ui/ and text/ are below state/ and features/: they import neither (docs/architecture.md#layout).',
      }),
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.node.ts', 'shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': withoutNode('shared/ is browser-safe: Node-only code goes in a *.node.ts module.', {
        group: ['electron', '**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/preload/**', '**/renderer/**'],
        message: 'shared/ imports nothing process-specific (docs/architecture.md#layout).',
      }),
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
    // Layers inside the runner: providers sit below the agent loop that calls them.
    files: ['agent-runner/providers/**/*.ts'],
    rules: restrict(['electron', '**/main/**', '**/mcp-host/**', '**/preload/**', '**/renderer/**'], 'agent-runner/ may import only shared/ and Node (docs/architecture.md#layout).', {
      group: ['**/loop/**', '**/emit/**', '**/tools/**'],
      message: 'agent-runner/providers/ is below the agent loop: it imports no loop/, emit/ or tools/ module (docs/architecture.md#layout).',
    }),
  },
  {
    files: ['main/**/*.ts'],
    ignores: ['main/**/*.test.ts'],
    rules: restrict(['**/renderer/**', '**/preload/**', '**/agent-runner/**', '**/mcp-host/**'], 'main/ may import only shared/ (docs/architecture.md#layout); it starts the runner and the mcp-host by file path, never by import.'),
  },
  {
    files: ['preload/**/*.ts'],
    rules: {
      'no-restricted-imports': withoutNode(
        'preload imports only electron and shared types.',
        { group: ['**/main/**', '**/agent-runner/**', '**/mcp-host/**', '**/renderer/**'], message: 'preload imports only electron and shared types.' },
        // Any package but electron, and any value (not type) import from shared/, is refused.
        { regex: '^(?!electron$|\\.\\.?/)', message: 'preload imports only electron and shared types.' },
        { group: ['../shared/**'], allowTypeImports: true, message: 'preload imports only types from shared/.' },
      ),
    },
  },
);
