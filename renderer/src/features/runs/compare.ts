/**
 * Run comparison: two run records reduced to what a person compares — the model calls'
 * replies and the tool calls' arguments and results, in order — paired step by step with
 * the differences marked, plus totals (tokens, calls, duration).
 */
import { walkDepthFirst } from '../../../../shared/depth-first';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import type { ExecNode } from '../../../../shared/protocol/nodes';
import { nodeDurationMs, runDurationMs } from '../../../../shared/protocol/duration';
import type { TurnRecord } from './turns';

/** One comparable step of a run. */
export interface RunStep {
  kind: ExecNode['kind'];
  name: string;
  status: ExecNode['status'];
  /** Reply text (model calls) or result text (tool calls). */
  text: string;
  /** Tool-call arguments as JSON text (tool calls) or the calls the model made (model calls). */
  detail: string;
  durationMs?: number;
}

export interface RunSummary {
  runId: string;
  status: ExecNode['status'];
  /** The run's mode; a turn's ("step + tool + step", turns.ts). */
  mode: string;
  /** Epoch milliseconds the run started. */
  startedAt: number;
  /** `provider/id` of the run's first model call; undefined when it made none. */
  model?: string;
  durationMs?: number;
  inputTokens: number;
  outputTokens: number;
  llmCalls: number;
  toolCalls: number;
  steps: RunStep[];
}

function outputText(n: ExecNode): string {
  const o = n.output as { text?: unknown; content?: { type: string; text?: string; mimeType?: string }[] } | undefined;
  if (!o) return n.error?.message ?? '';
  if (typeof o.text === 'string') return o.text;
  if (Array.isArray(o.content)) return o.content.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}${p.mimeType ? ` ${p.mimeType}` : ''}]`)).join('\n');
  return '';
}

/** Depth-first order of the tree (children by start time), without the root run node. */
function ordered(nodes: ExecNode[]): ExecNode[] {
  const kids = new Map<string | undefined, ExecNode[]>();
  for (const n of nodes) {
    const k = kids.get(n.parentId) ?? [];
    k.push(n);
    kids.set(n.parentId, k);
  }
  for (const list of kids.values()) list.sort((a, b) => a.startedAt - b.startedAt || a.id.localeCompare(b.id));
  const out: ExecNode[] = [];
  walkDepthFirst(kids.get(undefined) ?? [], (n) => kids.get(n.id), (n) => {
    if (n.kind !== 'run') out.push(n);
  });
  return out;
}

/** A run record reduced to its comparable steps (tree order) and totals. */
export function summarizeRun(rec: RunRecord): RunSummary {
  const steps: RunStep[] = [];
  let model: string | undefined;
  let inputTokens = 0;
  let outputTokens = 0;
  for (const n of ordered(rec.nodes)) {
    inputTokens += n.usage?.inputTokens ?? 0;
    outputTokens += n.usage?.outputTokens ?? 0;
    if (!model && (n.kind === 'llm' || n.kind === 'sampling') && n.model) model = n.model;
    const calls = (n.output as { toolCalls?: { name: string; arguments: unknown }[] } | undefined)?.toolCalls;
    steps.push({
      kind: n.kind,
      name: n.name,
      status: n.status,
      text: outputText(n),
      detail: n.kind === 'tool' ? JSON.stringify(n.input ?? {}) : calls?.length ? calls.map((c) => `${c.name}(${JSON.stringify(c.arguments)})`).join(', ') : '',
      durationMs: nodeDurationMs(n),
    });
  }
  const summary: RunSummary = {
    runId: rec.runId,
    status: rec.status,
    mode: (rec as TurnRecord).turnRuns?.join(' + ') ?? rec.mode,
    startedAt: rec.startedAt,
    // The run's own measure (its root node), as run history and the execution tree show it.
    durationMs: rec.endedAt !== undefined ? runDurationMs(rec) : undefined,
    inputTokens,
    outputTokens,
    llmCalls: steps.filter((s) => s.kind === 'llm' || s.kind === 'sampling').length,
    toolCalls: steps.filter((s) => s.kind === 'tool').length,
    steps,
  };
  if (model) summary.model = model;
  return summary;
}

/** A run's short id, as Run history names it ("Pick run 1a2b3c4d to compare"). */
export function shortRunId(runId: string): string {
  return runId.slice(0, 8);
}

/**
 * The name of a run's column in the comparison, also its accessible name:
 * "run 1a2b3c4d, started 29/11/2026 14:02:03, openai/gpt-4.1-mini, completed".
 * `formatTime` formats the start time (default: the locale's date and time, as Run history).
 */
export function runLabel(s: RunSummary, formatTime: (ms: number) => string = (ms) => new Date(ms).toLocaleString()): string {
  const status = s.status === 'awaiting_input' ? 'awaiting input' : s.status;
  return `run ${shortRunId(s.runId)}, started ${formatTime(s.startedAt)}, ${s.model ?? 'no model call'}, ${status}`;
}

/** A row of the comparison: the i-th step of each run; `same` when name, text and detail agree. */
export interface CompareRow {
  a?: RunStep;
  b?: RunStep;
  same: boolean;
}

/** Pairs the runs' steps by position; a step only one run has is never `same`. */
export function compareRuns(a: RunSummary, b: RunSummary): CompareRow[] {
  const rows: CompareRow[] = [];
  for (let i = 0; i < Math.max(a.steps.length, b.steps.length); i++) {
    const x = a.steps[i];
    const y = b.steps[i];
    rows.push({ a: x, b: y, same: !!x && !!y && x.kind === y.kind && x.name === y.name && x.text === y.text && x.detail === y.detail && x.status === y.status });
  }
  return rows;
}
