/**
 * The MCP chain against the real server-everything (npm), over stdio, Streamable HTTP, and
 * bundled (the server inside the mcp-host, linked in memory; what every host seeds):
 * McpToolExecutor → relay (McpService) → mcp-host child process → SDK client → server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import type { McpService } from '../../../main/core/mcp/service';
import { EVERYTHING, harness, makeHome, startEverythingHttp, startService, text, thread } from './harness';

type H = Awaited<ReturnType<typeof harness>>;

describe.each(['stdio', 'http', 'bundled'] as const)('server-everything over %s', (transport) => {
  let svc: McpService;
  let h: H;
  let httpServer: ChildProcess | undefined;

  beforeAll(async () => {
    let entry: Record<string, unknown>;
    if (transport === 'http') {
      const s = await startEverythingHttp();
      httpServer = s.child;
      entry = { type: 'http', url: s.url, headers: { 'X-Test': '$HOME' } };
    } else if (transport === 'bundled') {
      entry = { type: 'bundled', server: 'everything' };
    } else {
      entry = { command: process.execPath, args: [EVERYTHING, 'stdio'] };
    }
    svc = startService(makeHome({ everything: entry }));
    h = await harness(svc, 'everything');
  });

  afterAll(async () => {
    h?.detach();
    await svc?.close();
    httpServer?.kill();
  });

  it('lists tools with their JSON Schema and annotations', async () => {
    const sum = h.tool('get-sum');
    expect(sum.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } });
    expect(sum.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect((await svc.servers()).find((s) => s.name === 'everything')).toMatchObject({ transport, status: 'connected' });
  });

  it('echo and get-sum return their text, and the protocol log is attached to the node', async () => {
    const echo = await h.call('echo', { message: 'hello mcp' });
    expect(echo.out.isError).toBe(false);
    expect(text(echo.out)).toContain('hello mcp');
    const log = echo.rec.attrs.mcpLog as { dir: string; method?: string; size: number }[];
    expect(log.map((e) => `${e.dir} ${e.method ?? 'response'}`)).toEqual(['out tools/call', 'in response']);
    expect(log[0].size).toBeGreaterThan(10);
    const sum = await h.call('get-sum', { a: 2, b: 40 });
    expect(text(sum.out)).toBe('The sum of 2 and 40 is 42.');
  });

  it('rejects bad arguments before the call, naming the failing path', async () => {
    const r = await h.call('get-sum', { a: 'two' });
    expect(r.out.isError).toBe(true);
    expect(text(r.out)).toContain('/a must be number');
    expect(text(r.out)).toContain('/b is required');
    expect(r.rec.attrs.mcpLog).toBeUndefined(); // nothing was sent
  });

  it('keeps image content whole', async () => {
    const r = await h.call('get-tiny-image', {});
    const img = r.out.content.find((p) => p.type === 'image');
    expect(img).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(Buffer.from((img as { data: string }).data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(r.out.content.filter((p) => p.type === 'text')).toHaveLength(2);
  });

  it('keeps structuredContent', async () => {
    const r = await h.call('get-structured-content', { location: 'Chicago' });
    expect(r.out.structuredContent).toEqual({ temperature: 36, conditions: 'Light rain / drizzle', humidity: 82 });
  });

  it('reports progress notifications on the node', async () => {
    const r = await h.call('trigger-long-running-operation', { duration: 0.6, steps: 3 });
    expect(r.out.isError).toBe(false);
    expect(r.rec.progress.map((p) => [p.progress, p.total])).toEqual([[1, 3], [2, 3], [3, 3]]);
    const log = r.rec.attrs.mcpLog as { method?: string }[];
    expect(log.filter((e) => e.method === 'notifications/progress')).toHaveLength(3);
  });

  it('answers a sampling request with a nested sampling call', async () => {
    const r = await h.call('trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 }, {
      nestedLlm: async () => ({ content: [{ type: 'text', text: 'hi from the nested model' }], toolCalls: [], stopReason: 'stop' }),
    });
    expect(r.out.isError).toBe(false);
    expect(r.rec.nested).toHaveLength(1);
    expect(r.rec.nested[0]).toMatchObject({ kind: 'sampling', systemPrompt: 'You are a helpful test server.', maxTokens: 50 });
    expect(JSON.stringify(r.rec.nested[0].messages)).toContain('say hi');
    expect(text(r.out)).toContain('hi from the nested model');
    expect(text(r.out)).toContain('endTurn');
    const methods = (r.rec.attrs.mcpLog as { method?: string }[]).map((e) => e.method);
    expect(methods).toContain('sampling/createMessage');
  });

  it('with Review sampling, the user approves the request (edited) before the model runs, or rejects it', async () => {
    const reviewing = { ...thread(), settings: { reviewSampling: true } };
    const approved = await h.call('trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 }, {
      thread: reviewing,
      answer: {
        action: 'approve',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'say hello instead' } }], systemPrompt: 'Edited.', maxTokens: 20 },
      },
      nestedLlm: async () => ({ content: [{ type: 'text', text: 'hello from the nested model' }], toolCalls: [], stopReason: 'stop' }),
    });
    // The user saw the server's request as sent.
    expect(approved.rec.inputs[0]).toMatchObject({ kind: 'sampling', server: 'everything', params: { maxTokens: 50, systemPrompt: 'You are a helpful test server.' } });
    expect(JSON.stringify((approved.rec.inputs[0] as { params: unknown }).params)).toContain('say hi');
    // The model got the edited request.
    expect(approved.rec.nested[0]).toMatchObject({ kind: 'sampling', systemPrompt: 'Edited.', maxTokens: 20 });
    expect(JSON.stringify(approved.rec.nested[0].messages)).toContain('say hello instead');
    expect(text(approved.out)).toContain('hello from the nested model');

    const rejected = await h.call('trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 }, { thread: reviewing, answer: { action: 'reject' } });
    expect(rejected.rec.nested).toHaveLength(0);
    expect(text(rejected.out)).toContain('The user rejected the sampling request.');
    expect(text(rejected.out)).not.toMatch(/MCP error -1: MCP error -1/);
    const answer = (rejected.rec.attrs.mcpLog as { dir: string; body: { error?: { code?: number } } }[]).find((e) => e.dir === 'out' && e.body?.error);
    expect(answer?.body.error?.code).toBe(-1);
  });

  it('asks the user through elicitation: accept and decline', async () => {
    const ok = await h.call('trigger-elicitation-request', {}, { answer: { action: 'accept', content: { name: 'Ada Lovelace' } } });
    expect(ok.rec.inputs[0]).toMatchObject({ kind: 'elicitation', schema: { type: 'object', required: ['name'] } });
    expect(text(ok.out)).toContain('- Name: Ada Lovelace');
    const no = await h.call('trigger-elicitation-request', {}, { answer: { action: 'decline' } });
    expect(text(no.out)).toContain('declined');
    const cancel = await h.call('trigger-elicitation-request', {}, { answer: { action: 'cancel' } });
    expect(text(cancel.out)).toContain('cancelled');
  });

  it('keeps resource links and embedded resources as they are, not flattened to text', async () => {
    const links = await h.call('get-resource-links', { count: 2 });
    const linkParts = links.out.content.filter((p) => p.type === 'resource_link');
    expect(linkParts).toHaveLength(2);
    expect(linkParts[0]).toMatchObject({ type: 'resource_link', uri: expect.stringMatching(/^demo:\/\//) });
    const ref = await h.call('get-resource-reference', { resourceType: 'Text', resourceId: 3 });
    const embedded = ref.out.content.find((p) => p.type === 'resource');
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: expect.any(String), text: expect.any(String) } });
  });

  it('answers roots/list with the thread roots, follows a change, and the server\'s log notifications reach the node', async () => {
    const [a, b] = ['stepwise-root-a-', 'stepwise-root-b-'].map((p) => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), p))));
    const first = await h.call('get-roots-list', {}, { thread: thread([a]) });
    expect(first.out.isError).toBe(false);
    expect(text(first.out)).toContain(pathToFileURL(a).href);
    const methods = (first.rec.attrs.mcpLog as { dir: string; method?: string }[]).map((e) => `${e.dir} ${e.method ?? 'response'}`);
    expect(methods).toContain('in notifications/message');
    expect(first.rec.logs.map((l) => l.data)).toContainEqual(expect.objectContaining({ logger: 'everything-server', data: 'Roots updated: 1 root(s) received from client' }));
    const second = await h.call('get-roots-list', {}, { thread: thread([b]) });
    expect(text(second.out)).toContain(pathToFileURL(b).href);
    expect(text(second.out)).not.toContain(pathToFileURL(a).href);
  });
});
