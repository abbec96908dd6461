/**
 * ProcessSpawner contract, run against both adapters: the Node one (child_process.fork) and
 * the desktop shell's UtilityProcessSpawner. The Electron binary cannot run here, so
 * `utilityProcess.fork` is replaced by a stand-in (utility-standin.ts: child_process.fork with
 * Electron's UtilityProcess surface, and a `process.parentPort`-like object in the child); the
 * child code in shared/process-port.node.ts runs unchanged on its Electron path. Real
 * processes throughout: a real runner run and the real mcp-host with a real MCP server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import type { ChildExit, ChildLink, ProcessSpawner } from '../../../main/core/process/types';
import { UtilityProcessSpawner } from '../../../main/electron/utility-spawner';
import { seedDesktopMcpConfig } from '../../../main/electron/seed';
import { makeHome, RecordingClient, waitFor, writeThread } from '../../support/host-harness';
import { scriptedThread } from '../../support/threads';
import { bundledEntry } from './bundle';
import { forkCalls, standInFork } from './utility-standin';

const adapters: [string, () => ProcessSpawner][] = [
  ['NodeSpawner', () => new NodeSpawner({ stdout: 'pipe' })],
  ['UtilityProcessSpawner (utilityProcess.fork stand-in)', () => new UtilityProcessSpawner(standInFork)],
];

const links: ChildLink[] = [];
let core: HostCore | undefined;
let mcp: McpService | undefined;
afterEach(async () => {
  for (const l of links.splice(0)) l.kill('SIGKILL');
  await core?.close();
  core = undefined;
  await mcp?.close?.();
  mcp = undefined;
});

function start(spawner: ProcessSpawner, env?: Record<string, string>) {
  const link = spawner.spawn(bundledEntry('tests/integration/desktop/echo-child.ts'), { name: 'stepwise-test-echo', env });
  links.push(link);
  const frames: { ch: string; msg: unknown }[] = [];
  link.onFrame((f) => frames.push(f));
  let stderr = '';
  link.onStderr((c) => (stderr += c));
  let exit: ChildExit | undefined;
  link.onExit((e) => (exit = e));
  return { link, frames, stderr: () => stderr, exit: () => exit };
}

describe.each(adapters)('%s', (_name, make) => {
  it('carries run and mcp frames both ways, passes env and captures stderr', async () => {
    const c = start(make(), { STEPWISE_TEST_VALUE: 'from-host' });
    await waitFor(() => c.frames.some((f) => (f.msg as { ready?: boolean }).ready), 10_000, 'child ready');
    expect(c.link.pid).toBeGreaterThan(0);
    c.link.send({ ch: 'run', msg: { cmd: 'echo', value: { a: [1, 2], when: new Date(5) } } });
    c.link.send({ ch: 'mcp', msg: { hello: 'mcp' } });
    c.link.send({ ch: 'run', msg: { cmd: 'env', name: 'STEPWISE_TEST_VALUE' } });
    c.link.send({ ch: 'run', msg: { cmd: 'env', name: 'STEPWISE_PROCESS_NAME' } });
    c.link.send({ ch: 'run', msg: { cmd: 'stderr', text: 'diagnostic line\n' } });
    await waitFor(() => c.frames.length >= 5 && c.stderr().includes('diagnostic line'), 10_000, 'echoes');
    const msgs = c.frames.map((f) => f.msg) as Record<string, unknown>[];
    expect(msgs.find((m) => 'echo' in m)).toEqual({ echo: { a: [1, 2], when: new Date(5) }, pid: c.link.pid });
    expect(c.frames.find((f) => f.ch === 'mcp')?.msg).toEqual({ mcpEcho: { hello: 'mcp' } });
    expect(msgs.filter((m) => 'env' in m).map((m) => m.env)).toEqual(['from-host', 'stepwise-test-echo']);
  });

  it('delivers every frame posted before a clean exit, then reports the exit once', async () => {
    const c = start(make());
    await waitFor(() => c.frames.length > 0, 10_000, 'child ready');
    c.link.send({ ch: 'run', msg: { cmd: 'burst-exit', n: 200, code: 3 } });
    await waitFor(() => c.exit(), 10_000, 'exit');
    const seen = c.frames.map((f) => (f.msg as { i?: number }).i).filter((i) => i !== undefined);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    expect(c.exit()).toEqual({ code: 3, signal: null });
    // Late listeners still hear about the exit; sends after it are no-ops.
    const late = await new Promise<ChildExit>((r) => c.link.onExit(r));
    expect(late).toEqual({ code: 3, signal: null });
    expect(() => c.link.send({ ch: 'run', msg: { cmd: 'echo', value: 1 } })).not.toThrow();
  });

  it('kill("SIGKILL") ends a child that ignores SIGTERM and reports the signal', async () => {
    const c = start(make());
    await waitFor(() => c.frames.length > 0, 10_000, 'child ready');
    c.link.send({ ch: 'run', msg: { cmd: 'hang' } });
    await waitFor(() => c.frames.some((f) => (f.msg as { hanging?: boolean }).hanging), 10_000, 'hanging');
    c.link.kill('SIGKILL');
    await waitFor(() => c.exit(), 10_000, 'killed');
    expect(c.exit()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('runs a real agent-runner through the host core to completion', async () => {
    const home = makeHome();
    const thread = scriptedThread([{ text: 'one two three four five' }], { tokensPerSecond: 400 });
    writeThread(home, 't.json', thread);
    core = await createHostCore({ home, spawner: make(), runnerEntry: bundledEntry('agent-runner/index.ts'), log: () => {}, saveDebounceMs: 20 });
    const client = new RecordingClient();
    const conn = core.connect(client.send);
    await conn.request('thread.open', { path: 't.json' });
    await conn.request('stream.subscribe', {});
    const { runId } = (await conn.request('run.start', { threadId: thread.id, mode: 'step' })) as { runId: string };
    await waitFor(() => client.ended.get(runId), 20_000, 'run ended');
    expect(client.ended.get(runId)).toBe('completed');
    const llm = client.pushes.flatMap((p) => (p.type === 'tree_update' ? p.nodes : [])).find((n) => n.kind === 'llm')!;
    expect(client.textAtClose.get(llm.id)).toBe('one two three four five');
    expect(client.duplicates).toBe(0);
    await core.threads.flush();
    const saved = JSON.parse(fs.readFileSync(path.join(home, 'workspace', 't.json'), 'utf8'));
    expect(saved.context.messages.at(-1)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'one two three four five' }] });
  });

  it('runs the real mcp-host, which serves the bundled everything server the seed writes (no stdin, no ELECTRON_RUN_AS_NODE)', async () => {
    const home = makeHome();
    expect(await seedDesktopMcpConfig(home)).toBe(true);
    expect(fs.readFileSync(path.join(home, 'settings', 'mcp.json'), 'utf8')).not.toContain('ELECTRON_RUN_AS_NODE');
    mcp = new McpService({ home, spawner: make(), entry: bundledEntry('mcp-host/index.ts'), backoffMs: { initial: 50, max: 200 } });
    const tools = await mcp.tools('everything');
    expect(tools.map((t) => t.name)).toContain('echo');
    const r = await mcp.callTool('everything', 'get-sum', { a: 2, b: 40 });
    expect(r.output).toMatchObject({ isError: false, content: [{ type: 'text', text: 'The sum of 2 and 40 is 42.' }] });
  });
});

describe('UtilityProcessSpawner options', () => {
  it('forks with a serviceName, piped stdio and no ELECTRON_RUN_AS_NODE leaking into the child', async () => {
    const before = forkCalls.length;
    const prev = process.env.ELECTRON_RUN_AS_NODE;
    process.env.ELECTRON_RUN_AS_NODE = '1';
    try {
      const c = start(new UtilityProcessSpawner(standInFork));
      await waitFor(() => c.frames.length > 0, 10_000, 'child ready');
      c.link.send({ ch: 'run', msg: { cmd: 'env', name: 'ELECTRON_RUN_AS_NODE' } });
      await waitFor(() => c.frames.some((f) => 'env' in (f.msg as object)), 10_000, 'env');
      expect(c.frames.find((f) => 'env' in (f.msg as object))?.msg).toEqual({ env: null });
    } finally {
      if (prev === undefined) delete process.env.ELECTRON_RUN_AS_NODE;
      else process.env.ELECTRON_RUN_AS_NODE = prev;
    }
    const call = forkCalls[before];
    expect(call.args).toEqual([]);
    expect(call.options).toMatchObject({ serviceName: 'stepwise-test-echo', stdio: 'pipe' });
    expect(call.options.execArgv).toBeUndefined(); // a built .mjs entry needs no loader
  });
});
