// The import boundaries of eslint.config.js (docs/architecture.md#layout) fire, through the real ESLint Node API.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
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
  ])('%s: allows a legal import', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
