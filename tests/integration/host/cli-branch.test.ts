/**
 * `stepwise branch` and `stepwise run --from-run/--from-call` (docs/architecture.md#branches-and-time-travel),
 * the real CLI process: a branch file beside its source (numbered when taken) or at `-o`, never
 * over an existing file, linked to its source; time travel that sends only the calls from
 * `--from-call` on to the provider (the local SSE server counts them) and replaces the
 * thread's later messages with the new run's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import { validateThread } from '../../../shared/thread/validate';
import { threadWith, userMessage } from '../../support/threads';
import { makeHome } from '../../support/host-harness';
import { runCliProcess as stepwise } from '../../support/cli-process';
import { startSseServer, type ScriptedReply, type SseServer } from '../../support/sse-server';
import { chatChunk, chatSse, chatTextSse, chatUsageChunk } from '../providers/fixtures';

let server: SseServer;
beforeAll(async () => {
  server = await startSseServer();
});
afterAll(() => server.close());

const read = (file: string): Thread => JSON.parse(fs.readFileSync(file, 'utf8')) as Thread;

function sourceThread(): Thread {
  const t = threadWith({ systemPrompt: 'S', messages: [userMessage('one', 'u1'), userMessage('two', 'u2'), userMessage('three', 'u3')] }, { title: 'Plan' });
  t.context.messages[1] = { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'get_sum', arguments: { a: 1 }, output: { content: [{ type: 'text', text: '1' }], isError: false } }] };
  return t;
}

describe('stepwise branch', () => {
  it('writes the thread up to the message beside it, linked to its source; numbered when taken; -o never overwrites', async () => {
    const dir = fs.mkdtempSync(path.join(makeHome(), 'b-'));
    const file = path.join(dir, 'Plan.json');
    const source = sourceThread();
    fs.writeFileSync(file, JSON.stringify(source));
    const first = await stepwise(['branch', file, '--at', 'a1']);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.trim()).toBe(path.join(dir, 'Plan (branch).json'));
    const branch = read(first.stdout.trim());
    expect(validateThread(branch).ok).toBe(true);
    expect(branch.id).not.toBe(source.id);
    expect(branch.title).toBe('Plan (branch)');
    expect(branch.context.messages).toEqual(source.context.messages.slice(0, 2));
    expect(branch.branchOf).toEqual({ threadId: source.id, title: 'Plan', messageId: 'a1' });
    expect(branch.runRefs).toEqual([]);
    expect(read(file)).toEqual(source); // the source is not touched

    const second = await stepwise(['branch', file, '--at', 'u1']);
    expect(second.stdout.trim()).toBe(path.join(dir, 'Plan (branch 2).json'));
    expect(read(second.stdout.trim()).context.messages.map((m) => m.id)).toEqual(['u1']);

    const out = path.join(dir, 'out.json');
    expect((await stepwise(['branch', file, '--at', 'u3', '-o', out])).code).toBe(0);
    expect(read(out).context.messages).toHaveLength(3);
    const again = await stepwise(['branch', file, '--at', 'u1', '-o', out]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    expect(read(out).context.messages).toHaveLength(3);

    const unknown = await stepwise(['branch', file, '--at', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('has no message with id "nope" (its message ids: u1, a1, u3)');
  }, 120_000);
});

/** A built-in tool runs without approval (ReAct goes on) and without a server. */
const lookup: Tool = { type: 'builtin', name: 'lookup', parameters: { type: 'object' } };

function callsLookup(id: string): ScriptedReply {
  return { stream: [chatSse([chatChunk({ tool_calls: [{ index: 0, id, type: 'function', function: { name: 'lookup', arguments: '{}' } }] }), chatChunk({}, 'tool_calls'), chatUsageChunk(9, 3)])] };
}

describe('stepwise run --from-run --from-call', () => {
  it('sends only call n and later to the provider and replaces what the run added', async () => {
    const home = makeHome();
    fs.mkdirSync(path.join(home, 'settings'));
    fs.writeFileSync(path.join(home, 'settings', 'providers.json'), JSON.stringify({ providers: [{ id: 'local', api: 'openai-completions', baseUrl: `${server.url}/v1`, apiKey: 'sk-local-test-123456' }] }));
    const thread = threadWith({ tools: [lookup], messages: [userMessage('go', 'u1')] }, { model: { provider: 'local', id: 'm', params: {} } });
    thread.settings = { autoRunTools: true };
    const file = path.join(home, 'thread.json');
    fs.writeFileSync(file, JSON.stringify(thread));

    let before = server.requests.length;
    server.reply(callsLookup('call_1'), { stream: [chatTextSse(['first answer'])] });
    expect((await stepwise(['run', file, '--mode', 'react', '--home', home])).code).toBe(0);
    expect(server.requests.length - before).toBe(2);
    const original = read(file);
    expect(original.context.messages).toHaveLength(3);
    const runId = original.runRefs[0].id;

    before = server.requests.length;
    server.reply({ stream: [chatTextSse(['second answer'])] });
    const r = await stepwise(['run', file, '--mode', 'react', '--home', home, '--from-run', runId, '--from-call', '2']);
    expect(r.code).toBe(0);
    expect(server.requests.length - before).toBe(1);
    const now = read(file);
    expect(now.context.messages.map((m) => m.id).slice(0, 1)).toEqual(['u1']);
    expect(now.context.messages).toHaveLength(3);
    expect(now.context.messages[2].content).toEqual([{ type: 'text', text: 'second answer' }]);
    expect(now.runRefs[1].from).toEqual({ runId, call: 2 });

    for (const [args, message] of [
      [['--from-call', '2'], '--from-run and --from-call go together'],
      [['--from-run', runId, '--from-call', '0'], '--from-call must be a positive integer'],
      [['--from-run', runId, '--from-call', '3'], 'made 2 model call(s); there is no call 3'],
    ] as const) {
      const bad = await stepwise(['run', file, '--mode', 'react', '--home', home, ...args]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain(message);
    }
    expect(server.requests.length - before).toBe(1);
  }, 120_000);
});
