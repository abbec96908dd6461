// The import boundaries of eslint.config.js (docs/architecture.md#layout) fire, through the real ESLint Node API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const eslint = new ESLint({ cwd: ROOT });

/** Messages of the no-restricted-imports rule for `code` linted as if it were `file`. */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it.each([
    ['renderer/src/features/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n", /renderer is sandboxed/],
    ['renderer/src/features/x.ts', "import fs from 'fs';\nexport const r = fs;\n", /renderer is sandboxed/],
    ['renderer/src/features/x.ts', "import { x } from '../../main/x';\nexport const r = x;\n", /renderer may import only shared/],
    ['shared/thread/x.ts', "import { app } from 'electron';\nexport const r = app;\n", /shared\/ imports nothing process-specific/],
    ['shared/thread/x.ts', "import path from 'node:path';\nexport const r = path;\n", /shared\/ is browser-safe/],
    ['agent-runner/loop/x.ts', "import { app } from 'electron';\nexport const r = app;\n", /agent-runner\/ may import only shared\/ and Node/],
    ['agent-runner/tools/x.ts', "import { McpHost } from '../../mcp-host/host';\nexport const r = McpHost;\n", /agent-runner\/ may import only shared\/ and Node/],
    ['mcp-host/x.ts', "import { app } from 'electron';\nexport const r = app;\n", /mcp-host\/ may import only shared\/ and Node/],
    ['mcp-host/x.ts', "import { startRun } from '../agent-runner/run';\nexport const r = startRun;\n", /mcp-host\/ may import only shared\/ and Node/],
    ['mcp-host/x.ts', "import { McpSupervisor } from '../main/core/mcp/supervisor';\nexport const r = McpSupervisor;\n", /mcp-host\/ may import only shared\/ and Node/],
    ['main/core/x.ts', "import { McpHost } from '../../mcp-host/host';\nexport const r = McpHost;\n", /main\/ may import only shared\//],
    ['preload/x.ts', "import { x } from '../main/x';\nexport const r = x;\n", /preload imports only electron and shared types/],
    ['preload/x.ts', "import WebSocket from 'ws';\nexport const r = WebSocket;\n", /preload imports only electron and shared types/],
    ['preload/x.ts', "import { usageCost } from '../shared/protocol/runner';\nexport const r = usageCost;\n", /preload imports only types from shared/],
    ['main/core/x.ts', "import { x } from '../agent-runner/x';\nexport const r = x;\n", /main\/ may import only shared\//],
    // The upward imports #14 removed: a provider reaching into the agent loop, a ui part into state.
    ['agent-runner/providers/scripted.ts', "import { messageText } from '../loop/messages';\nexport const r = messageText;\n", /providers\/ is below the agent loop/],
    ['agent-runner/providers/x.ts', "import type { RunEmitter } from '../emit/emitter';\nexport type R = RunEmitter;\n", /providers\/ is below the agent loop/],
    ['renderer/src/ui/code-editor.tsx', "import { keepsRepeats } from '../state/repeated-ids';\nexport const r = keepsRepeats;\n", /ui\/ and text\/ are below state\/ and features\//],
    ['renderer/src/ui/x.tsx', "import { node } from 'node:fs';\nexport const r = node;\n", /renderer is sandboxed/],
    ['renderer/src/text/x.ts', "import { useApp } from '../state/context';\nexport const r = useApp;\n", /ui\/ and text\/ are below state\/ and features\//],
  ])('%s: refuses %j', async (file, code, message) => {
    const errors = await boundaryErrors(file, code);
    // `node:x` is caught by both the builtin list and the `node:*` pattern: one or two reports, all this boundary's.
    expect(errors.length).toBeGreaterThan(0);
    for (const e of errors) expect(e).toMatch(message);
  });

  it.each([
    ['shared/thread/x.node.ts', "import path from 'node:path';\nexport const r = path;\n"],
    ['renderer/src/features/x.ts', "import { validateThread } from '../../../shared/thread/validate';\nexport const r = validateThread;\n"],
    ['main/core/x.ts', "import { readFile } from 'node:fs/promises';\nimport { newId } from '../../shared/thread/ids';\nexport const r = [readFile, newId];\n"],
    ['agent-runner/loop/x.ts', "import { spawn } from 'node:child_process';\nexport const r = spawn;\n"],
    ['mcp-host/x.ts', "import { spawn } from 'node:child_process';\nimport { channelPort } from '../shared/process-port.node.js';\nimport type { McpHostToHost } from '../shared/protocol/mcp';\nexport const r: [unknown, unknown, McpHostToHost?] = [spawn, channelPort];\n"],
    ['preload/x.ts', "import { contextBridge } from 'electron';\nimport type { HostPush } from '../shared/protocol/host-api';\nexport const r: [unknown, HostPush?] = [contextBridge];\n"],
    ['agent-runner/providers/x.ts', "import { partText } from './content';\nimport type { Message } from '../../shared/thread/schema';\nexport const r: [unknown, Message?] = [partText];\n"],
    ['renderer/src/ui/x.tsx', "import { base64Bytes } from './base64-bytes';\nexport const r = base64Bytes;\n"],
    ['renderer/src/state/x.ts', "import { base64Bytes } from '../ui/base64-bytes';\nimport { StatusBadge } from '../ui/status';\nexport const r = [base64Bytes, StatusBadge];\n"],
  ])('%s: allows a legal import', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});

/** Messages of the cycle rule for files of a fixture tree written to a temporary folder, linted with the project's config. */
describe('import cycles (stepwise/no-cycle over import-x/no-cycle, type-only imports included)', () => {
  let dir: string;
  let fixtureLint: ESLint;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'stepwise-cycles-'));
    fixtureLint = new ESLint({ cwd: dir, overrideConfigFile: path.join(ROOT, 'eslint.config.js') });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes `files` (relative path → source) into a fresh sub-folder; returns the cycle messages per file. */
  async function cycles(files: Record<string, string>): Promise<Record<string, string[]>> {
    const sub = mkdtempSync(path.join(dir, 'case-'));
    for (const [name, code] of Object.entries(files)) writeFileSync(path.join(sub, name), code);
    const results = await fixtureLint.lintFiles(Object.keys(files).map((f) => path.join(sub, f)));
    const out: Record<string, string[]> = {};
    for (const r of results) {
      const other = r.messages.filter((m) => m.ruleId !== 'stepwise/no-cycle' && m.severity === 2);
      expect(other, `${path.basename(r.filePath)} lints clean but for cycles`).toEqual([]);
      out[path.basename(r.filePath)] = r.messages.filter((m) => m.ruleId === 'stepwise/no-cycle').map((m) => m.message);
    }
    return out;
  }

  const cycle = ['Dependency cycle detected'];
  it.each<[string, Record<string, string>, Record<string, string[]>]>([
    [
      'reports a cycle of value imports between extensionless .ts modules',
      {
        'a.ts': "import { b } from './b';\nexport const a = (): number => b + 1;\n",
        'b.ts': "import { a } from './a';\nexport const b = 1;\nexport const c = a;\n",
      },
      { 'a.ts': cycle, 'b.ts': cycle },
    ],
    [
      'reports a cycle made only of type imports (the plugin alone skips them)',
      {
        'a.ts': "import type { B } from './b';\nexport interface A { b?: B }\n",
        'b.ts': "import type { A } from './a';\nexport interface B { a?: A }\n",
      },
      { 'a.ts': cycle, 'b.ts': cycle },
    ],
    [
      // The shape of the old shared/protocol cycle: host-api → runner → mcp → host-api.
      'reports a three-module cycle of type imports and type re-exports through a .tsx module',
      {
        'host-api.ts': "import type { Spec } from './runner';\nexport interface Info { spec?: Spec }\n",
        'runner.tsx': "import { type Mode } from './mcp';\nexport interface Spec { mode?: Mode }\n",
        'mcp.ts': "export type { Info as McpInfo } from './host-api';\nexport type Mode = 'relay' | 'port';\n",
      },
      {
        'host-api.ts': ['Dependency cycle via "./mcp:1"'],
        'runner.tsx': ['Dependency cycle via "./host-api:1"'],
        'mcp.ts': ['Dependency cycle via "./runner:1"'],
      },
    ],
    [
      'follows a `./x.node.js` import to its .ts module (how Node-only shared modules are imported)',
      {
        'a.ts': "import { b } from './b.node.js';\nexport const a = (): number => b;\n",
        'b.node.ts': "import type { a } from './a';\nexport const b = 1;\nexport type A = typeof a;\n",
      },
      { 'a.ts': ['Dependency cycle detected'], 'b.node.ts': ['Dependency cycle detected'] },
    ],
    [
      'allows a hierarchy: shared leaves imported by value and by type from several modules',
      {
        'leaf.ts': 'export type Id = string;\nexport const make = (): Id => "x";\n',
        'mid.ts': "import { make, type Id } from './leaf';\nexport const mid = (): Id => make();\n",
        'top.tsx': "import { mid } from './mid';\nimport type { Id } from './leaf';\nexport const top = (): Id => mid();\n",
      },
      { 'leaf.ts': [], 'mid.ts': [], 'top.tsx': [] },
    ],
  ])('%s', async (_name, files, expected) => {
    expect(await cycles(files)).toEqual(expected);
  });

  it.each([
    // The contract's helpers taking a type from a table that is built with them (host-methods.ts
    // imports define.ts). The old shared/protocol cycle (host-api → runner → mcp → host-api) is
    // gone with the contract: host-api.ts now only re-exports it.
    ['shared/protocol/contract/define.ts', "import type { HostMethods } from './host-methods';\nexport type R = HostMethods;\n"],
    // The store's helpers took its option types from thread-store.ts, which imports them.
    ['main/core/store/outside-changes.ts', "import type { ThreadStoreOptions } from './thread-store';\nexport type R = ThreadStoreOptions;\n"],
    ['main/core/store/edit-recovery.ts', "import type { ThreadIO } from './thread-store';\nexport type R = ThreadIO;\n"],
  ])('refuses the import that closed an old cycle, against the real tree: %s', async (file, code) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
    const cycles = result.messages.filter((m) => m.ruleId === 'stepwise/no-cycle');
    expect(cycles.map((m) => m.message)).toEqual([expect.stringMatching(/^Dependency cycle/)]);
  });
});
