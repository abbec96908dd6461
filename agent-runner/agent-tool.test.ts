import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startRun } from './run';
import type { RunnerToHost } from '../shared/protocol/runner';
import type { ExecNode } from '../shared/protocol/nodes';
import type { RunResult, TreeUpdate } from '../shared/protocol/envelopes';
import type { AssistantMessage } from '../shared/thread/messages';
import { scriptedThread, userMessage } from '../tests/support/threads';

const ws = mkdtempSync(path.join(os.tmpdir(), 'stepwise-agent-'));
afterAll(() => rmSync(ws, { recursive: true, force: true }));

describe('agent tools', () => {
  it('run another thread as a nested agent under an agent node and return its final text', async () => {
    const sub = scriptedThread([{ when: 'capital of France', thinking: 'Easy.', text: 'Paris.' }], { messages: [], title: 'Geographer' });
    writeFileSync(path.join(ws, 'Geographer.json'), JSON.stringify(sub));
    const main = scriptedThread(
      [
        { when: 'France', toolCalls: [{ name: 'ask_geographer', arguments: { input: 'What is the capital of France?' } }] },
        { when: '^Paris', text: 'The geographer says Paris.' },
      ],
      {
        tools: [{ type: 'agent', name: 'ask_geographer', description: 'Ask the geographer agent.', threadPath: 'Geographer.json' }],
        messages: [userMessage('Which city is the capital of France?')],
      },
    );
    const out: RunnerToHost[] = [];
    const h = startRun({ runId: 'r1', threadId: main.id, thread: main, mode: 'react', providers: [], home: ws, workspaceDir: ws }, (m) => out.push(m));
    await h.done;
    const nodes = new Map<string, ExecNode>();
    for (const m of out) if (m.type === 'tree_update') for (const n of (m as TreeUpdate).nodes) nodes.set(n.id, n);
    const all = [...nodes.values()];
    const tool = all.find((n) => n.kind === 'tool')!;
    const agent = all.find((n) => n.kind === 'agent')!;
    const subLlm = all.find((n) => n.kind === 'llm' && n.parentId === agent.id)!;
    expect(agent.parentId).toBe(tool.id);
    expect(agent.status).toBe('completed');
    expect(subLlm.output).toMatchObject({ text: 'Paris.', thinking: 'Easy.' });
    expect(tool.output).toEqual({ content: [{ type: 'text', text: 'Paris.' }], isError: false });
    const result = out.find((m) => m.type === 'run_result') as RunResult;
    expect((result.messages.at(-1) as AssistantMessage).content).toEqual([{ type: 'text', text: 'The geographer says Paris.' }]);
  });

  it("renders the agent thread's templates before it runs (docs/architecture.md#templates)", async () => {
    const sub = scriptedThread([{ text: 'Done.' }], { messages: [], title: 'Helper' });
    sub.context.systemPrompt = 'You are {{ role }}. {{@include("helper-rules.md")}}';
    sub.context.variables = { role: 'a helper' };
    writeFileSync(path.join(ws, 'Helper.json'), JSON.stringify(sub));
    writeFileSync(path.join(ws, 'helper-rules.md'), 'Answer in {{ "one" | upper }} word.');
    const main = scriptedThread([{ toolCalls: [{ name: 'ask', arguments: { input: 'go' } }] }, { text: 'ok' }], {
      tools: [{ type: 'agent', name: 'ask', threadPath: 'Helper.json' }],
    });
    const out: RunnerToHost[] = [];
    await startRun({ runId: 'r-tmpl', threadId: main.id, thread: main, mode: 'react', providers: [], home: ws, workspaceDir: ws }, (m) => out.push(m)).done;
    const records = out.filter((m) => m.type === 'llm_record') as { request: { system?: string } }[];
    expect(records.map((r) => r.request.system)).toContain('You are a helper. Answer in ONE word.');
  });

  it("a template in the agent thread that runs too long fails that tool call naming the bound, and the run goes on", async () => {
    const sub = scriptedThread([{ text: 'never' }], { messages: [], title: 'Slow' });
    // About a billion steps: far past the worker's 2 s budget (range itself is capped at a million items).
    sub.context.systemPrompt = '{% for i in range(0, 1000000) %}{% for j in range(0, 1000) %}{% endfor %}{% endfor %}';
    writeFileSync(path.join(ws, 'Slow.json'), JSON.stringify(sub));
    const main = scriptedThread([{ toolCalls: [{ name: 'ask', arguments: { input: 'go' } }] }, { text: 'went on' }], {
      tools: [{ type: 'agent', name: 'ask', threadPath: 'Slow.json' }],
    });
    const out: RunnerToHost[] = [];
    await startRun({ runId: 'r-slow', threadId: main.id, thread: main, mode: 'react', providers: [], home: ws, workspaceDir: ws }, (m) => out.push(m)).done;
    const nodes = out.filter((m): m is TreeUpdate => m.type === 'tree_update').flatMap((m) => m.nodes);
    const tool = nodes.filter((n) => n.kind === 'tool').at(-1)!;
    expect(tool.status).toBe('error');
    expect(JSON.stringify(tool.output)).toMatch(/Slow\.json.*systemPrompt: rendering took longer than 2 s \(a loop too long\?\) and was stopped/);
    const result = out.find((m) => m.type === 'run_result') as RunResult;
    expect(result.status).toBe('completed');
    expect((result.messages.at(-1) as AssistantMessage).content).toEqual([{ type: 'text', text: 'went on' }]);
  }, 20_000);

  it('an agent tool called with arguments its schema refuses does not run, and says which', async () => {
    writeFileSync(path.join(ws, 'Geographer.json'), JSON.stringify(scriptedThread([{ text: 'never' }], { messages: [] })));
    const main = scriptedThread([{ toolCalls: [{ name: 'ask', arguments: { task: 'no input field' } }] }], {
      tools: [{ type: 'agent', name: 'ask', threadPath: 'Geographer.json' }],
    });
    const out: RunnerToHost[] = [];
    await startRun({ runId: 'r3', threadId: main.id, thread: main, mode: 'react', providers: [], home: ws, workspaceDir: ws }, (m) => out.push(m)).done;
    const nodes = out.filter((m): m is TreeUpdate => m.type === 'tree_update').flatMap((m) => m.nodes);
    expect(nodes.some((n) => n.kind === 'agent')).toBe(false);
    const tool = nodes.filter((n) => n.kind === 'tool').at(-1)!;
    expect(tool.status).toBe('error');
    expect(JSON.stringify(tool.output)).toMatch(/Invalid arguments for tool \\"ask\\", not run: .*input/);
  });

  it('an agent tool whose thread is missing, outside the workspace or behind a symbolic link out ends in a clear tool error with no absolute path', async () => {
    const outside = mkdtempSync(path.join(os.tmpdir(), 'stepwise-outside-'));
    try {
      writeFileSync(path.join(outside, 'Secret.json'), JSON.stringify(scriptedThread([{ text: 'leaked' }], { messages: [] })));
      symlinkSync(path.join(outside, 'Secret.json'), path.join(ws, 'Link.json'));
      symlinkSync(outside, path.join(ws, 'Linked folder'), 'dir');
      const cases: [string, RegExp][] = [
        ['Nope.json', /Could not load the agent thread Nope.json: it does not exist/],
        ['Sub/Nope.json', /Could not load the agent thread Sub\/Nope.json: it does not exist/],
        ['../outside.json', /'\.\.' would leave the workspace/],
        [path.join(outside, 'Secret.json'), /absolute paths are not allowed/],
        ['Link.json', /leads outside the workspace \(through a symbolic link\)/],
        ['Linked folder/Secret.json', /leads outside the workspace \(through a symbolic link\)/],
      ];
      for (const [threadPath, message] of cases) {
        const tool = await runAgentTool(threadPath);
        expect(tool.status, threadPath).toBe('error');
        const said = JSON.stringify(tool.output);
        expect(said, threadPath).toMatch(message);
        expect(said).not.toContain('leaked');
        // No absolute path but the one the thread itself gives.
        for (const dir of [ws, realpathSync(ws)]) expect(said).not.toContain(dir);
        if (!path.isAbsolute(threadPath)) expect(said).not.toContain(outside);
      }
    } finally {
      rmSync(path.join(ws, 'Link.json'), { force: true });
      rmSync(path.join(ws, 'Linked folder'), { force: true });
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('an agent tool finds its thread whichever Unicode form (NFC or NFD) the name has on disk', async () => {
    const nfc = 'Caf\u00e9 agent.json';
    const nfd = nfc.normalize('NFD');
    for (const [onDisk, threadPath] of [[nfd, nfc], [nfc, nfd]]) {
      writeFileSync(path.join(ws, onDisk), JSON.stringify(scriptedThread([{ text: 'Bonjour.' }], { messages: [] })));
      try {
        const tool = await runAgentTool(threadPath);
        expect(tool.status).toBe('completed');
        expect(tool.output).toEqual({ content: [{ type: 'text', text: 'Bonjour.' }], isError: false });
      } finally {
        rmSync(path.join(ws, onDisk));
      }
    }
  });

  it('an agent thread that is not valid JSON is said with its line and column, not a path', async () => {
    writeFileSync(path.join(ws, 'Broken.json'), '{\n  "version": 1,\n  oops\n}');
    const tool = await runAgentTool('Broken.json');
    expect(tool.status).toBe('error');
    const said = JSON.stringify(tool.output);
    expect(said).toMatch(/Could not load the agent thread Broken.json: line 3, column 3: /);
    expect(said).not.toContain(ws);
  });
});

/** Runs a thread whose one tool call asks the agent tool at `threadPath`; the tool node at the end. */
async function runAgentTool(threadPath: string): Promise<ExecNode> {
  const main = scriptedThread([{ toolCalls: [{ name: 'ask', arguments: { input: 'x' } }] }], {
    tools: [{ type: 'agent', name: 'ask', threadPath }],
  });
  const out: RunnerToHost[] = [];
  await startRun({ runId: 'r2', threadId: main.id, thread: main, mode: 'react', providers: [], home: ws, workspaceDir: ws }, (m) => out.push(m)).done;
  const nodes = out.filter((m): m is TreeUpdate => m.type === 'tree_update').flatMap((m) => m.nodes);
  return nodes.filter((n) => n.kind === 'tool').at(-1)!;
}
