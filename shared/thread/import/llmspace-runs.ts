/**
 * LLM Space `runHistory` → Stepwise run records, and `evaluations` / `evaluationRubrics` →
 * `Thread.evaluations` / `Thread.rubrics` (../evaluation.ts).
 *
 * A run history entry is `{ id?, thread: <the thread when the run completed>, usage?, timestamp }`.
 * Each becomes a completed run record (`RunRecord`, runs/<threadId>/<runId>.json) whose
 * `messages` are the snapshot's whole conversation with `baseMessageIds: []`, so "Restore
 * messages" rebuilds exactly what LLM Space kept. Its tree: the `run` root (usage of the run;
 * `attrs.snapshot` holds the snapshot's model, system prompt, tools and the variable values each
 * prompt place was run with), one `llm` node per assistant message after the last user message
 * (what the run added), and a `tool` node per answered tool call. LLM Space records only when a
 * run completed, so a run starts and ends at `timestamp`.
 */
import type { RunRecord } from '../../protocol/host-api';
import type { ExecNode, LlmOutput } from '../../protocol/nodes';
import type { AssistantMessage, Message } from '../messages';
import type { RunRef } from '../schema';
import type { Evaluation, Rubric, RunScores, Verdict } from '../evaluation';
import { fail, isObj, type Obj } from './common';
import { F, messagesOf, modelOf, toolsOf, usageOf, type LlmSpaceCtx } from './llmspace-messages';
import { frozenValues } from './llmspace-variables';

const SAFE_ID = /^[A-Za-z0-9._-]{1,200}$/;

/** Run records and their refs, plus LLM Space run id → Stepwise run id (they differ only for ids the run store cannot take). */
export interface ImportedRuns {
  runs: RunRecord[];
  refs: RunRef[];
  ids: Map<string, string>;
}

/** Converts `runHistory` (at `/runHistory`) for the thread `threadId`. */
export function runsOf(history: unknown, threadId: string, ctx: LlmSpaceCtx): ImportedRuns {
  const out: ImportedRuns = { runs: [], refs: [], ids: new Map() };
  if (history === undefined) return out;
  if (!Array.isArray(history)) fail(F, '/runHistory', 'expected an array of runs');
  const used = new Set<string>();
  history.forEach((h, i) => {
    const at = `/runHistory/${i}`;
    if (!isObj(h)) fail(F, at, 'expected a run { thread, timestamp }');
    if (typeof h.timestamp !== 'number' || !Number.isFinite(h.timestamp)) fail(F, `${at}/timestamp`, 'expected the time the run completed (epoch ms)');
    if (!isObj(h.thread)) fail(F, `${at}/thread`, 'expected the thread snapshot');
    let runId = typeof h.id === 'string' && SAFE_ID.test(h.id) && !used.has(h.id) ? h.id : `llmspace-run-${i + 1}`;
    while (used.has(runId)) runId = `${runId}-${i + 1}`;
    used.add(runId);
    if (typeof h.id === 'string') {
      out.ids.set(h.id, runId);
      if (h.id !== runId) ctx.notes.push({ pointer: `${at}/id`, message: `run id ${JSON.stringify(h.id)} is stored as ${runId} (run ids are letters, digits, ".", "_" and "-", unique)` });
    }
    const { record, ref } = runOf(h.thread, `${at}/thread`, runId, threadId, h.timestamp, usageOf(h.usage, `${at}/usage`, ctx), ctx);
    out.runs.push(record);
    out.refs.push(ref);
  });
  return out;
}

function runOf(snap: Obj, at: string, runId: string, threadId: string, t: number, usage: AssistantMessage['usage'], ctx: LlmSpaceCtx): { record: RunRecord; ref: RunRef } {
  const context = snap.context === undefined ? {} : isObj(snap.context) ? snap.context : fail(F, `${at}/context`, 'expected an object');
  const messages = messagesOf(context.messages, `${at}/context/messages`, ctx);
  const model = modelOf(snap.model);
  const modelName = `${model.provider}/${model.id}`;
  const lastUser = messages.map((m) => m.role).lastIndexOf('user');
  const added = messages.slice(lastUser + 1).filter((m): m is AssistantMessage => m.role === 'assistant');
  const snapshot: Record<string, unknown> = {
    model,
    systemPrompt: typeof context.systemPrompt === 'string' ? context.systemPrompt : '',
    tools: toolsOf(context.tools, `${at}/context/tools`),
  };
  if (typeof snap.title === 'string') snapshot.title = snap.title;
  if (context.variables !== undefined) snapshot.variableDefinitions = context.variables;
  if (context.variableVariants !== undefined) snapshot.variableVariants = context.variableVariants;
  const frozen = frozenValues(context.snapshot, `${at}/context/snapshot`);
  if (Object.keys(frozen).length) snapshot.frozenVariables = frozen;
  const root: ExecNode = { id: runId, runId, kind: 'run', name: 'LLM Space run', status: 'completed', startedAt: t, endedAt: t, attrs: { importedFrom: 'llmspace', snapshot } };
  if (usage) root.usage = usage;
  const nodes: ExecNode[] = [root];
  added.forEach((m, k) => {
    const id = `${runId}.llm${k + 1}`;
    const text = m.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    const thinking = m.content.flatMap((p) => (p.type === 'thinking' ? [p.thinking] : [])).join('');
    const output: LlmOutput = { text };
    if (thinking) output.thinking = thinking;
    if (m.toolCalls?.length) output.toolCalls = m.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, ...(c.rawArguments ? { rawArguments: c.rawArguments } : {}) }));
    const node: ExecNode = { id, runId, parentId: runId, kind: 'llm', name: model.id || 'model', status: 'completed', startedAt: t, endedAt: t, input: { messageId: m.id }, output, model: modelName };
    if (m.usage) node.usage = m.usage;
    if (m.timing) node.timing = m.timing;
    nodes.push(node);
    m.toolCalls?.forEach((c, j) => {
      if (!c.output) return;
      nodes.push({ id: `${id}.tool${j + 1}`, runId, parentId: id, kind: 'tool', name: c.name, status: c.output.isError ? 'error' : 'completed', startedAt: t, endedAt: t, input: c.arguments, output: c.output, toolCallId: c.id, ...(c.output.isError ? { error: { message: 'the tool reported an error' } } : {}) });
    });
  });
  const record: RunRecord = { runId, threadId, mode: added.length > 1 ? 'react' : 'step', status: 'completed', startedAt: t, endedAt: t, nodes, records: [], messages: messages as unknown[], baseMessageIds: [] };
  const ref: RunRef = { id: runId, startedAt: t, endedAt: t, status: 'completed', mode: record.mode };
  const preview = previewOf(messages);
  if (preview) ref.preview = preview;
  if (usage) ref.usage = usage;
  return { record, ref };
}

function previewOf(messages: Message[]): string | undefined {
  const last = [...messages].reverse().find((m) => m.role === 'assistant');
  const text = last?.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('').trim();
  return text ? (text.length > 120 ? `${text.slice(0, 117)}…` : text) : undefined;
}

const VERDICTS: Record<string, Verdict> = { leftBetter: 'a', rightBetter: 'b', tie: 'tie', pass: 'pass', fail: 'fail' };

/** `evaluationRubrics` → rubrics. */
export function rubricsOf(raw: unknown): Rubric[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(F, '/evaluationRubrics', 'expected an array');
  return raw.map((r, i) => rubric(r, `/evaluationRubrics/${i}`));
}

function rubric(r: unknown, at: string): Rubric {
  if (!isObj(r) || typeof r.id !== 'string' || !r.id) fail(F, `${at}/id`, 'expected a rubric with an id');
  if (!Array.isArray(r.criteria) || r.criteria.length < 2 || r.criteria.length > 6) fail(F, `${at}/criteria`, 'expected 2 to 6 criteria');
  const out: Rubric = {
    id: r.id,
    name: typeof r.name === 'string' ? r.name : r.id,
    criteria: r.criteria.map((c, j) => {
      if (!isObj(c) || typeof c.id !== 'string' || !c.id) fail(F, `${at}/criteria/${j}/id`, 'expected a criterion with an id');
      return { id: c.id, name: typeof c.name === 'string' ? c.name : c.id, ...(typeof c.description === 'string' ? { description: c.description } : {}) };
    }),
  };
  if (Number.isInteger(r.revision) && (r.revision as number) >= 1) out.revision = r.revision as number;
  for (const k of ['createdAt', 'updatedAt'] as const) if (typeof r[k] === 'number') out[k] = r[k];
  return out;
}

/** `evaluations` → Evaluations, run ids mapped as the run records store them. */
export function evaluationsOf(raw: unknown, ids: Map<string, string>): Evaluation[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(F, '/evaluations', 'expected an array');
  return raw.map((e, i) => {
    const at = `/evaluations/${i}`;
    if (!isObj(e)) fail(F, at, 'expected an evaluation object');
    const runId = (k: 'leftRunId' | 'rightRunId'): string => {
      const v = e[k];
      if (typeof v !== 'string' || !v) fail(F, `${at}/${k}`, 'expected a run id');
      return ids.get(v) ?? v;
    };
    const verdict = typeof e.verdict === 'string' ? VERDICTS[e.verdict] : undefined;
    if (!verdict) fail(F, `${at}/verdict`, `expected one of ${Object.keys(VERDICTS).join(', ')}`);
    const out: Evaluation = { id: typeof e.id === 'string' && e.id ? e.id : `evaluation-${i + 1}`, runA: runId('leftRunId'), runB: runId('rightRunId'), verdict };
    if (typeof e.note === 'string') out.note = e.note;
    if (e.rubric !== undefined) out.rubric = rubric(e.rubric, `${at}/rubric`);
    if (e.runScores !== undefined) {
      if (!Array.isArray(e.runScores)) fail(F, `${at}/runScores`, 'expected an array');
      out.runScores = e.runScores.map((s, j): RunScores => {
        const sat = `${at}/runScores/${j}`;
        if (!isObj(s) || typeof s.runId !== 'string' || !Array.isArray(s.scores)) fail(F, sat, 'expected { runId, scores }');
        return {
          runId: ids.get(s.runId) ?? s.runId,
          scores: s.scores.map((c, k) => {
            if (!isObj(c) || typeof c.criterionId !== 'string' || !Number.isInteger(c.score) || (c.score as number) < 1 || (c.score as number) > 5) {
              fail(F, `${sat}/scores/${k}`, 'expected { criterionId, score: 1–5 }');
            }
            return { criterionId: c.criterionId, score: c.score as number };
          }),
        };
      });
    }
    for (const k of ['createdAt', 'updatedAt'] as const) if (typeof e[k] === 'number') out[k] = e[k];
    return out;
  });
}
