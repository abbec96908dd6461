/**
 * Runs MCP tools from a run: arguments are checked against the tool's JSON Schema, the call
 * goes to the mcp-host over the runner's `mcp` port, progress and log notifications land on
 * the tool node, server requests during the call become a nested `sampling` node or an
 * elicitation the user answers, and the protocol log of the call is attached to the node
 * (`attrs.mcpLog`). Every failure resolves as an `isError` output.
 */
import type { Port } from '../../shared/protocol/runner';
import type { McpToRunner, RunnerToMcp } from '../../shared/protocol/mcp';
import type { McpTool, Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../shared/thread/messages';
import { MCP_TO_RUNNER } from '../../shared/protocol/contract/mcp-channel';
import { checkedPort, messageGate, type GateOptions } from '../../shared/protocol/contract/gate';
import { toolErrorOutput } from '../../shared/thread/tool-output';
import type { ToolContext, ToolExecutor } from './types';
import { validateArguments } from '../../shared/json/json-schema';
import { samplingToNestedCall, nestedResultToSampling } from './mcp/sampling';

export { needsApproval, toMcpTool } from '../../shared/protocol/mcp';

/** After a cancel, how long to wait for the mcp-host's answer before giving up (ms). */
const CANCEL_GRACE_MS = 5_000;

/** The elicitation answer the server gets: accept with content, decline or cancel. */
function toElicitResult(value: unknown): { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' } {
  const v = value as { action?: unknown; content?: unknown } | null;
  if (v?.action === 'accept' && v.content && typeof v.content === 'object' && !Array.isArray(v.content)) {
    return { action: 'accept', content: v.content as Record<string, unknown> };
  }
  if (v?.action === 'decline') return { action: 'decline' };
  return { action: 'cancel' };
}

export class McpToolExecutor implements ToolExecutor {
  private readonly port: Port<McpToRunner, RunnerToMcp>;

  /**
   * `port` leads to the mcp-host (relayed or brokered). What arrives on it is checked against
   * MCP_TO_RUNNER first: anything else is dropped and logged (`gate`, default stderr).
   */
  constructor(port: Port<unknown, RunnerToMcp>, gate?: GateOptions) {
    this.port = checkedPort(port, messageGate('agent-runner', MCP_TO_RUNNER, gate), 'the mcp-host');
  }

  handles(tool: Tool): boolean {
    return tool.type === 'mcp';
  }

  async execute(tool: Tool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput> {
    if (tool.type !== 'mcp') return toolErrorOutput(`McpToolExecutor cannot run ${tool.type} tool "${tool.name}".`);
    const problems = validateArguments(tool.inputSchema, call.arguments);
    if (problems) {
      return toolErrorOutput(`Invalid arguments for MCP tool "${tool.toolName}" (server "${tool.server}"), not sent: ${problems.join('; ')}. Edit the arguments, then run the tool again.`);
    }
    if (ctx.signal.aborted) return toolErrorOutput(`MCP tool "${tool.toolName}": cancelled before it started.`);
    return this.call(tool, call, ctx);
  }

  private call(tool: McpTool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput> {
    const callId = ctx.nodeId;
    return new Promise<ToolOutput>((resolve) => {
      let done = false;
      let graceTimer: NodeJS.Timeout | undefined;
      const finish = (output: ToolOutput) => {
        if (done) return;
        done = true;
        off();
        clearTimeout(graceTimer);
        ctx.signal.removeEventListener('abort', onAbort);
        resolve(output);
      };
      const onAbort = () => {
        this.port.post({ type: 'cancel', callId, reason: 'the run was cancelled' });
        graceTimer = setTimeout(() => finish(toolErrorOutput(`MCP tool "${tool.toolName}": cancelled (the mcp-host did not confirm).`)), CANCEL_GRACE_MS);
      };
      const off = this.port.onMessage((m) => {
        if (m.type === 'ready' || m.callId !== callId || done) return;
        switch (m.type) {
          case 'progress':
            ctx.progress(m.progress, m.total, m.message);
            break;
          case 'log':
            ctx.log(m.level, m.logger ? { logger: m.logger, data: m.data } : m.data);
            break;
          case 'server_request':
            void this.answerServerRequest(tool, m, ctx);
            break;
          case 'result':
            ctx.setAttrs({ mcpLog: m.mcpLog, ...(m.outputProblems?.length ? { outputProblems: m.outputProblems } : {}) });
            finish(m.output);
            break;
        }
      });
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      this.port.post({
        type: 'call',
        callId,
        server: tool.server,
        tool: tool.toolName,
        arguments: call.arguments,
        roots: ctx.thread.context.roots,
      });
    });
  }

  private async answerServerRequest(tool: McpTool, m: Extract<McpToRunner, { type: 'server_request' }>, ctx: ToolContext): Promise<void> {
    const reply = (result?: unknown, error?: string, code?: number) =>
      this.port.post({ type: 'server_request_result', requestId: m.requestId, result, error: error ? { message: error, ...(code !== undefined ? { code } : {}) } : undefined });
    try {
      if (m.kind === 'sampling') {
        let params = m.params;
        if (ctx.thread.settings?.reviewSampling) {
          const verdict = await ctx.awaitInput({ kind: 'sampling', server: tool.server, params }).catch(() => ({ action: 'reject' }));
          const v = verdict as { action?: unknown; params?: unknown } | null;
          // MCP spec (client/sampling): a user's rejection is error -1.
          if (v?.action !== 'approve') return reply(undefined, 'The user rejected the sampling request.', -1);
          if (v.params && typeof v.params === 'object' && !Array.isArray(v.params)) params = v.params as Record<string, unknown>;
        }
        const r = await ctx.nestedLlm(samplingToNestedCall(params, ctx.thread, tool.server, ctx.providerIds));
        reply(nestedResultToSampling(r, (r as { model?: string }).model ?? ctx.thread.model.id));
      } else {
        let answer: unknown;
        try {
          answer = await ctx.awaitInput({ kind: 'elicitation', message: String(m.params.message ?? ''), schema: m.params.requestedSchema ?? {} });
        } catch {
          answer = { action: 'cancel' };
        }
        reply(toElicitResult(answer));
      }
    } catch (err) {
      reply(undefined, err instanceof Error ? err.message : String(err));
    }
  }
}
