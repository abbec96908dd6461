/**
 * One `tools/call` on a server session: connect if needed, roots, a timeout that restarts on
 * progress and stands still while a server request waits on a model or a person (call-clock.ts), cancel (`notifications/cancelled` via the abort signal), and the result converted
 * into the thread's `ToolOutput` with every content kind kept. Failures become `isError` output.
 */
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { bareMcpMessage } from './mcp-error';
import { MCP_DEFAULT_TIMEOUT_MS, type McpLogEntry } from '../shared/protocol/mcp';
import type { ToolOutput, ToolResultPart } from '../shared/thread/messages';
import { toolErrorOutput } from '../shared/thread/tool-output';
import { ConnectError, type ServerSession } from './session';
import { CallClock } from './call-clock';
import { outputProblems } from './output-check';

/** The largest timer Node accepts (about 24.8 days): effectively no SDK timeout. */
const NO_SDK_TIMEOUT_MS = 2 ** 31 - 1;

export interface CallRequest {
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  roots?: string[];
  timeoutMs?: number;
  signal: AbortSignal;
  onProgress(progress: number, total?: number, message?: string): void;
}

/**
 * What one call gives back: the output, the call's protocol log, and the problems of its
 * `structuredContent` against the tool's `outputSchema` (output-check.ts; empty when none).
 */
export interface CallOutcome {
  output: ToolOutput;
  mcpLog: McpLogEntry[];
  outputProblems: string[];
}

/** Runs one call; never rejects. */
export async function runCall(session: ServerSession, req: CallRequest): Promise<CallOutcome> {
  const mcpLog: McpLogEntry[] = [];
  const local = new AbortController();
  const onOuterAbort = () => local.abort(req.signal.reason ?? new Error('cancelled'));
  if (req.signal.aborted) onOuterAbort();
  req.signal.addEventListener('abort', onOuterAbort, { once: true });
  const timeout = req.timeoutMs ?? session.config.timeoutMs ?? MCP_DEFAULT_TIMEOUT_MS;
  const clock = new CallClock(timeout, () => local.abort(new McpError(ErrorCode.RequestTimeout, `timed out after ${timeout} ms`)));
  const end = session.begin({
    callId: req.callId,
    mcpLog,
    abort: (reason) => local.abort(reason),
    progress: (progress, total, message) => {
      clock.touch();
      req.onProgress(progress, total, message);
    },
    hold: () => clock.hold(),
  });
  const stderrBefore = session.stderr().length;
  let result: CallToolResult;
  try {
    const fresh = !session.isConnected();
    await session.setRoots(req.roots);
    const client = await session.connect();
    await session.settleRoots(fresh);
    if (local.signal.aborted) throw local.signal.reason;
    clock.touch();
    // `tools/call` as a plain request: the SDK's `callTool` throws when structuredContent does not
    // match the outputSchema, losing the result; it is checked below instead, and kept.
    result = (await client.request({ method: 'tools/call', params: { name: req.tool, arguments: req.arguments } }, CallToolResultSchema, {
      signal: local.signal,
      // The call's own clock (CallClock) times it out; the SDK's must never fire first.
      timeout: NO_SDK_TIMEOUT_MS,
      // Asks the server for progress; the session reports it (and touches the clock).
      onprogress: () => {},
    })) as CallToolResult;
  } catch (err) {
    // The SDK turns an abort reason into a RequestTimeout McpError: report the reason itself.
    const cause = local.signal.aborted ? local.signal.reason : err;
    const cancelled = req.signal.aborted;
    return { output: toolErrorOutput(describeCallError(session, req.tool, cause, cancelled, timeout, session.stderr().slice(stderrBefore))), mcpLog, outputProblems: [] };
  } finally {
    clock.stop();
    end();
    req.signal.removeEventListener('abort', onOuterAbort);
  }
  // After the call has ended, so a first `tools/list` to learn the schema is not in the call's log.
  return { output: toToolOutput(result), mcpLog, outputProblems: outputProblems(await session.outputSchemaOf(req.tool), result) };
}

function describeCallError(session: ServerSession, tool: string, err: unknown, cancelled: boolean, timeout: number, stderr: string): string {
  const where = `MCP tool "${tool}" on server "${session.name}"`;
  if (err instanceof ConnectError) return err.message;
  const tail = stderr.trim() ? ` stderr: ${stderr.trim().split('\n').slice(-5).join(' | ')}` : '';
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return `${where}: timed out after ${timeout} ms without a result or progress (notifications/cancelled sent).`;
    if (err.code === ErrorCode.ConnectionClosed) return `${where}: the server closed the connection during the call (it exited or crashed).${tail}`;
    return `${where}: JSON-RPC error ${err.code}: ${bareMcpMessage(err.message)}`;
  }
  const msg = err instanceof Error ? err.message : String(err);
  if (cancelled) return `${where}: cancelled${msg && msg !== 'cancelled' ? ` (${msg})` : ''}; notifications/cancelled sent.`;
  return msg.startsWith('MCP server') ? msg : `${where}: ${msg}`;
}

/** Converts a CallToolResult into the thread's ToolOutput; unknown content kinds are kept as JSON text. */
export function toToolOutput(r: CallToolResult): ToolOutput {
  const content: ToolResultPart[] = [];
  for (const c of r.content ?? []) {
    const part = toPart(c as Record<string, unknown>);
    content.push(part);
  }
  const out: ToolOutput = { content, isError: r.isError === true };
  if (r.structuredContent !== undefined) out.structuredContent = r.structuredContent;
  return out;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function toPart(c: Record<string, unknown>): ToolResultPart {
  switch (c.type) {
    case 'text':
      return { type: 'text', text: String(c.text ?? '') };
    case 'image':
    case 'audio':
      return { type: c.type, mimeType: String(c.mimeType ?? ''), data: String(c.data ?? '') };
    case 'resource_link': {
      const p: ToolResultPart = { type: 'resource_link', uri: String(c.uri ?? '') };
      for (const k of ['name', 'title', 'description', 'mimeType'] as const) {
        const v = str(c[k]);
        if (v !== undefined) p[k] = v;
      }
      return p;
    }
    case 'resource': {
      const r = (c.resource ?? {}) as Record<string, unknown>;
      const resource: Extract<ToolResultPart, { type: 'resource' }>['resource'] = { uri: String(r.uri ?? '') };
      for (const k of ['mimeType', 'text', 'blob'] as const) {
        const v = str(r[k]);
        if (v !== undefined) resource[k] = v;
      }
      return { type: 'resource', resource };
    }
    default:
      return { type: 'text', text: `[content of type ${JSON.stringify(c.type)} kept as JSON] ${JSON.stringify(c)}` };
  }
}
