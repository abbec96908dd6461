/**
 * Detail sections of a tool node beyond its arguments and result: a built-in tool's result
 * drawn as what it is (file diffs, terminal, todo list) or, while held for approval, what it
 * would do (`attrs.preview`); the log it wrote (MCP
 * `notifications/message`, and Stepwise's own lines such as waiting for another run's turn on
 * a server), the result's `structuredContent`, and the call's MCP protocol log (every
 * JSON-RPC message it caused, `attrs.mcpLog`).
 */
import { Badge, Group, Stack, Text } from '@mantine/core';
import type { McpLogEntry } from '../../../../shared/protocol/mcp';
import { JsonEditor } from '../../ui/editors';
import { toJson } from '../../ui/format';
import { ApprovalPreviewView, ToolResultBody } from '../../ui/ToolResults';
import { approvalPreview, toolResultView } from '../../../../shared/tools/builtin-results';

/** One line of a tool node's `attrs.logs` (agent-runner/loop/tool-call.ts). */
export interface ToolLogLine {
  level: string;
  /** What the tool logged; MCP log notifications come as `{ logger, data }`. */
  data: unknown;
  /** ms since the epoch. */
  t: number;
}

/** The text of a log line's data. */
export function logText(data: unknown): string {
  const d = data as { logger?: unknown; data?: unknown } | null;
  const inner = d && typeof d === 'object' && 'data' in d ? d.data : data;
  const prefix = d && typeof d === 'object' && typeof d.logger === 'string' && d.logger !== 'stepwise' ? `[${d.logger}] ` : '';
  return prefix + (typeof inner === 'string' ? inner : toJson(inner));
}

const LEVEL_COLOR: Record<string, string> = { error: 'red', critical: 'red', alert: 'red', emergency: 'red', warning: 'yellow', warn: 'yellow', notice: 'blue', info: 'blue' };

/** The sections to add for a tool node (empty for other nodes or when there is nothing). */
export function toolSections(attrs: Record<string, unknown> | undefined, output: unknown, startedAt: number | undefined): { value: string; label: string; body: React.ReactNode }[] {
  const out: { value: string; label: string; body: React.ReactNode }[] = [];
  const logs = Array.isArray(attrs?.logs) ? (attrs.logs as ToolLogLine[]) : [];
  if (logs.length) {
    out.push({
      value: 'log',
      label: `Log (${logs.length})`,
      body: (
        <Stack gap={2} aria-label="Tool log">
          {logs.map((l, i) => (
            <Group key={i} gap={6} wrap="nowrap" align="flex-start">
              <Text size="xs" c="dimmed" ff="monospace" w={56} ta="right">{startedAt !== undefined ? `+${((l.t - startedAt) / 1000).toFixed(1)}s` : ''}</Text>
              <Badge size="xs" variant="light" color={LEVEL_COLOR[l.level] ?? 'gray'}>{l.level}</Badge>
              <Text size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', flex: 1 }}>{logText(l.data)}</Text>
            </Group>
          ))}
        </Stack>
      ),
    });
  }
  const structured = (output as { structuredContent?: unknown } | undefined)?.structuredContent;
  const view = toolResultView(structured);
  if (view) {
    const label = view.kind === 'files' ? `Changes (${view.changes.length} file${view.changes.length === 1 ? '' : 's'})` : view.kind === 'bash' ? 'Terminal' : 'Todo list';
    out.push({ value: 'view', label, body: <ToolResultBody structured={structured} /> });
  }
  if (!output && approvalPreview(attrs?.preview)) out.push({ value: 'preview', label: 'Waiting for approval', body: <ApprovalPreviewView preview={attrs!.preview} /> });
  if (structured !== undefined) {
    out.push({ value: 'structured', label: 'Structured content', body: <JsonEditor label="Structured content" value={toJson(structured)} readOnly maxHeight={300} /> });
  }
  // The mcp-host's check of structuredContent against the tool's outputSchema (mcp-host/output-check.ts).
  const problems = Array.isArray(attrs?.outputProblems) ? (attrs.outputProblems as string[]) : [];
  if (problems.length) {
    out.push({
      value: 'outputSchema',
      label: `Output schema problems (${problems.length})`,
      body: (
        <Stack gap={0} aria-label="Output schema problems">
          {problems.map((p) => <Text key={p} size="xs" c="red" ff="monospace">{p}</Text>)}
        </Stack>
      ),
    });
  }
  const mcpLog = Array.isArray(attrs?.mcpLog) ? (attrs.mcpLog as McpLogEntry[]) : [];
  if (mcpLog.length) {
    out.push({
      value: 'protocol',
      label: `MCP protocol (${mcpLog.length} message${mcpLog.length === 1 ? '' : 's'})`,
      body: (
        <Stack gap={4}>
          <Stack gap={0} aria-label="MCP messages">
            {mcpLog.map((e, i) => (
              <Text key={i} size="xs" ff="monospace">
                {e.dir === 'out' ? '→' : '←'} {e.method ?? (e.id !== undefined ? `response ${e.id}` : 'message')}
                {e.method && e.id !== undefined ? ` #${e.id}` : ''} <Text span size="xs" c="dimmed">{e.size} B{e.truncated ? ', truncated' : ''}</Text>
              </Text>
            ))}
          </Stack>
          <JsonEditor label="MCP protocol log" value={toJson(mcpLog)} readOnly maxHeight={400} />
        </Stack>
      ),
    });
  }
  return out;
}
