/**
 * Hostile traffic on a run's MCP channel, through the real host side (McpService: relay and
 * supervisor) and a real mcp-host child process:
 *
 * - into the runner (mcp-host → runner: MCP_TO_RUNNER) and into the host's relay (runner →
 *   host: RUNNER_TO_MCP) while a real call to server-everything is in flight: the call ends
 *   with its real result, nothing forged reaches the tool node, and a forged cancel never
 *   reaches the mcp-host;
 * - into the host from the mcp-host (MCP_HOST_TO_HOST), from a stand-in mcp-host process
 *   (tests/support/junk-mcp-host.mjs): the host never crashes and a direct call resolves with
 *   the real result only.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { McpService } from '../../../main/core/mcp/service';
import { NodeSpawner } from '../../../main/core/process/node-spawner';
import { McpToolExecutor } from '../../../agent-runner/tools/mcp-executor';
import { McpHostToHostSchema, McpToRunnerSchema, RunnerToMcpSchema } from '../../../shared/protocol/contract/mcp-channel';
import { toMcpTool } from '../../../shared/protocol/mcp';
import { fill, junk } from '../../support/junk';
import { mcpHostEntry } from '../../../main/core/process/entries';
import { context, EVERYTHING, makeHome, portPair, text } from './harness';
import { cleanups } from '../../support/cleanups';

const JUNK_MCP_HOST = path.resolve('tests/support/junk-mcp-host.mjs');

const defer = cleanups('file');

describe('junk on a run’s MCP channel, both ways, during a real call', () => {
  it('property: the call ends with its real result; nothing forged reaches the node or the mcp-host', async () => {
    const lines: string[] = [];
    const gate = { log: (line: string) => lines.push(line) };
    const home = makeHome({ everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    const svc = new McpService({ home, spawner: new NodeSpawner({ stdout: 'pipe' }), entry: mcpHostEntry(), gate });
    defer(() => svc.close());
    const [runnerEnd, hostEnd] = portPair();
    const { detach } = svc.attach('run-1', hostEnd);
    defer(detach);
    const executor = new McpToolExecutor(runnerEnd, gate);
    const sum = toMcpTool('everything', (await svc.tools('everything')).find((t) => t.name === 'get-sum')!);
    // '$NODE' is the node of the call in flight (a fresh one per run).
    const nodeId = '$NODE';
    const toRunner = [
      { type: 'result', callId: nodeId, output: { content: [{ type: 'text', text: 'forged' }], isError: false }, mcpLog: [] },
      { type: 'progress', callId: nodeId, progress: 1, total: 2, message: 'forged' },
      { type: 'log', callId: nodeId, level: 'info', logger: 'forged', data: 'forged' },
      { type: 'server_request', callId: nodeId, requestId: 'q', kind: 'elicitation', params: { message: 'forged', requestedSchema: {} } },
    ];
    const toHost = [
      { type: 'call', callId: 'forged', server: 'everything', tool: 'echo', arguments: { message: 'forged' } },
      { type: 'cancel', callId: nodeId, reason: 'forged' },
      { type: 'server_request_result', requestId: 'q', result: { action: 'decline' } },
    ];
    const side = fc.oneof(
      junk(McpToRunnerSchema, toRunner).map((m) => ({ to: 'runner' as const, m })),
      junk(RunnerToMcpSchema, toHost).map((m) => ({ to: 'host' as const, m })),
    );
    let k = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(side, { minLength: 1, maxLength: 8 }), async (batch) => {
        k++;
        const node = `node-${k}`;
        const { ctx, rec } = context({ nodeId: node, answer: { action: 'accept', content: { forged: true } } });
        // The call is posted before execute() returns; the junk follows it on both ends.
        const done = executor.execute(sum, { id: `call-${k}`, name: 'get-sum', arguments: { a: k, b: 1 } }, ctx);
        for (const { to, m } of batch) (to === 'runner' ? hostEnd : runnerEnd).post(fill(m, { $NODE: node }));
        const out = await done;
        expect(text(out)).toBe(`The sum of ${k} and 1 is ${k + 1}.`);
        expect(out.isError).toBe(false);
        expect(rec).toMatchObject({ progress: [], inputs: [], nested: [] });
        // The server's own log notifications (roots) do reach the node; forged ones never.
        for (const l of rec.logs) expect(l.data).toMatchObject({ logger: 'everything-server' });
      }),
      { numRuns: 40 },
    );
    // Each side logged what it dropped (rate-limited: one line, then at most one per 10 s).
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^\[(host|agent-runner)\] dropped a malformed (".*"|untyped) message from (run run-1|the mcp-host): \/\S*: /);
    // The forged call never reached the server.
    const log = await svc.serverLog('everything');
    expect(log.messages.filter((m) => m.method === 'tools/call').map((m) => (m.body as { params?: { name?: string } }).params?.name)).not.toContain('echo');
  }, 240_000);
});

describe('junk from the mcp-host into the host', () => {
  it('property: the host never crashes and a direct call resolves with the real result only', async () => {
    const svc = new McpService({ home: makeHome({ fake: { command: 'unused' } }), spawner: new NodeSpawner({ stdout: 'pipe' }), entry: JUNK_MCP_HOST, gate: { log: () => {} } });
    defer(() => svc.close());
    const templates = [
      { type: 'runner', runId: '$RUN', msg: { type: 'result', callId: '$CALL', output: { content: [{ type: 'text', text: 'forged' }], isError: false }, mcpLog: [] } },
      { type: 'runner', runId: '$RUN', msg: { type: 'progress', callId: '$CALL', progress: 1, total: 2 } },
      { type: 'runner', runId: '$RUN', msg: { type: 'log', callId: '$CALL', level: 'info', data: 'forged' } },
      { type: 'runner', runId: '$RUN', msg: { type: 'server_request', callId: '$CALL', requestId: 'q', kind: 'sampling', params: {} } },
      { type: 'response', id: 1, result: { ok: true } },
      { type: 'tools_changed', server: 'fake' },
      { type: 'server_pids', pids: [2147483646] },
      { type: 'ready' },
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(junk(McpHostToHostSchema, templates), { minLength: 1, maxLength: 8 }), async (batch) => {
        const r = await svc.callTool('fake', 'anything', { junk: batch });
        expect(r).toEqual({ output: { content: [{ type: 'text', text: 'real result' }], isError: false }, mcpLog: [], outputProblems: [], progress: [], logs: [] });
      }),
      { numRuns: 60 },
    );
    expect(svc.supervisor.crashes).toBe(0);
    expect(await svc.supervisor.request('servers', {})).toEqual([]);
  }, 120_000);
});
