import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { launchWebHost, type Launched } from '../../../main/web/launch';
import { connectWs } from '../../support/ws-client';
import { StreamConsumer } from '../../../shared/stream/consumer';
import type { HostPush } from '../../../shared/protocol/host-api';

function get(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    http.get({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body, headers: res.headers }));
    }).on('error', reject);
  });
}

describe('web host over a real host core', () => {
  let app: Launched;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-web-'));
    app = await launchWebHost({ home, open: false, log: () => {} });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('refuses a wrong token, a rebinding Host and a foreign Origin', async () => {
    expect((await get(`http://127.0.0.1:${app.web.port}/?token=nope`)).status).toBe(401);
    expect((await get(`http://127.0.0.1:${app.web.port}/api/session`, { host: `evil.example:${app.web.port}`, authorization: `Bearer ${app.web.token}` })).status).toBe(421);
    const origin = `http://127.0.0.1:${app.web.port}`;
    // The right server and token, but a page of another site: the handshake is refused (403).
    await expect(connectWs(origin, app.web.token, { originHeader: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(connectWs(origin, 'wrong')).rejects.toThrow(/401/);
  });

  it('lists the seeded examples and streams a scripted step run to a WebSocket client', async () => {
    const origin = `http://127.0.0.1:${app.web.port}`;
    const c = await connectWs(origin, app.web.token);
    const entries = await c.call<{ path: string; title: string }[]>('workspace.list');
    expect(entries.map((e) => e.title)).toContain('MCP agent, step by step');
    const opened = await c.call('thread.open', { path: entries.find((e) => e.title === 'MCP agent, step by step')!.path });
    await c.call('stream.subscribe', {});
    const { runId } = await c.call('run.start', { threadId: opened.thread.id, mode: 'step' });
    const ended = await c.waitFor((p: HostPush) => p.type === 'run_ended' && (p as { runId: string }).runId === runId, 30_000);
    expect(ended).toMatchObject({ status: 'completed' });
    const consumer = new StreamConsumer();
    for (const p of c.pushes) if (p.type === 'tree_update' || p.type === 'llm_delta' || p.type === 'node_snapshot') consumer.apply(p);
    const llm = [...consumer.nodes.values()].find((n) => n.node?.kind === 'llm')!;
    expect(llm.text).toContain("I'll add the numbers");
    const tools = [...consumer.nodes.values()].filter((n) => n.node?.kind === 'tool');
    expect(tools.map((t) => [t.node!.name, t.status])).toEqual([
      ['get-sum', 'awaiting_input'],
      ['trigger-sampling-request', 'awaiting_input'],
    ]);
    const patch = c.pushes.find((p) => p.type === 'thread_patch' && (p as { origin: string }).origin === `run:${runId}`);
    expect(patch).toBeTruthy();

    // Run all tools: both MCP calls execute in parallel; the sampling request nests a node.
    const tool = await c.call('run.start', { threadId: opened.thread.id, mode: 'tool' });
    const toolEnd = await c.waitFor((p: HostPush) => p.type === 'run_ended' && (p as { runId: string }).runId === tool.runId, 60_000);
    for (const p of c.pushes) if (p.type === 'tree_update' || p.type === 'llm_delta' || p.type === 'node_snapshot') consumer.apply(p);
    const toolNodes = [...consumer.nodes.values()].filter((n) => n.node?.runId === tool.runId && n.node?.kind === 'tool');
    const sum = toolNodes.find((n) => n.node!.name === 'get-sum')!;
    const trig = toolNodes.find((n) => n.node!.name === 'trigger-sampling-request')!;
    expect(sum.node!.output).toMatchObject({ content: [{ type: 'text', text: 'The sum of 17 and 25 is 42.' }], isError: false });
    const sampling = [...consumer.nodes.values()].find((n) => n.node?.kind === 'sampling')!;
    expect(sampling.node!.parentId).toBe(trig.nodeId);
    expect(sampling.text).toContain('Grey water climbs in');
    expect(JSON.stringify(trig.node!.output)).toContain('Grey water climbs in');
    expect(toolEnd).toMatchObject({ status: 'completed' });

    // Continue: the final answer.
    const cont = await c.call('run.start', { threadId: opened.thread.id, mode: 'step' });
    const contEnd = await c.waitFor((p: HostPush) => p.type === 'run_ended' && (p as { runId: string }).runId === cont.runId, 30_000);
    expect(contEnd).toMatchObject({ status: 'completed' });
    const reopened = await c.call('thread.open', { path: opened.path });
    const last = reopened.thread.context.messages.at(-1);
    expect(last.content.at(-1).text).toMatch(/Both tools have answered/);
    c.close();
  });
});
