/**
 * Runs out as OpenTelemetry GenAI traces and back in (issue 32, docs/architecture.md#traces),
 * through the real CLI: an example thread is run (`stepwise run`, runner process, scripted
 * model, the `everything` MCP server), exported (`stepwise export --format otlp-json`) and
 * imported into another home (`stepwise import --home`); the imported thread has the same
 * messages and its run the same tree as the original.
 */
import { copyFile, readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliProcess } from '../../support/cli-process';
import { tempFolder } from '../../support/temp-folder';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { Message } from '../../../shared/thread/messages';
import type { Thread } from '../../../shared/thread/schema';

const EXAMPLES = path.resolve(import.meta.dirname, '../../../resources/examples');
const tmp = tempFolder('stepwise-otel-', 'test');

const messagesOf = (ms: Message[]) =>
  ms.map((m) => ({
    role: m.role,
    content: m.content.map((p) => (p.type === 'text' ? p.text : p.type)),
    calls: m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, arguments: c.arguments, output: c.output?.content })) : [],
  }));
const treeOf = (r: RunRecord) => r.nodes.map((n) => ({ kind: n.kind, name: n.name, status: n.status, parent: r.nodes.findIndex((x) => x.id === n.parentId), usage: n.usage, toolCallId: n.toolCallId, startedAt: n.startedAt, endedAt: n.endedAt }));

type Attr = { key: string; value: Record<string, unknown> };
type OtlpSpan = { name: string; kind: number; traceId: string; spanId: string; parentSpanId?: string; attributes: Attr[]; status: { code: number } };
const attr = (s: OtlpSpan, key: string) => Object.values(s.attributes.find((a) => a.key === key)?.value ?? {})[0];

describe('stepwise export --format otlp-json, then stepwise import', () => {
  for (const [example, mode] of [['ReAct loop with tools', 'react'], ['MCP agent, step by step', 'step'], ['Capital cities quiz', 'step']] as const) {
    it(`"${example}" (${mode}): the same messages and tree come back`, async () => {
      const home = tmp('home');
      const file = path.join(home, 'thread.json');
      await (await import('node:fs/promises')).mkdir(home, { recursive: true });
      await copyFile(path.join(EXAMPLES, `${example}.json`), file);
      const ran = await runCliProcess(['run', '--mode', mode, '--home', home, file]);
      expect(ran.code, ran.stderr).toBe(0);
      const thread = JSON.parse(await readFile(file, 'utf8')) as Thread;
      const [runId] = thread.runRefs.map((r) => r.id);
      const run = JSON.parse(await readFile(path.join(home, 'runs', thread.id, `${runId}.json`), 'utf8')) as RunRecord;

      const traceFile = path.join(home, 'trace.json');
      const exported = await runCliProcess(['export', file, '--run', 'last', '--format', 'otlp-json', '-o', traceFile, '--home', home]);
      expect(exported.code, exported.stderr).toBe(0);
      const otlp = JSON.parse(await readFile(traceFile, 'utf8')) as { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] };
      const spans = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
      expect(spans).toHaveLength(run.nodes.length);
      // The conventions' names, exactly: one invoke_agent root, a chat span (CLIENT = 3) per model call, execute_tool per tool call.
      const ops = spans.map((s) => attr(s, 'gen_ai.operation.name'));
      expect(ops.filter((o) => o === 'invoke_agent')).toHaveLength(1);
      expect(ops.filter((o) => o === 'chat')).toHaveLength(run.nodes.filter((n) => n.kind === 'llm').length);
      expect(ops.filter((o) => o === 'execute_tool')).toHaveLength(run.nodes.filter((n) => n.kind === 'tool').length);
      for (const s of spans.filter((x) => attr(x, 'gen_ai.operation.name') === 'chat')) {
        expect(s.kind).toBe(3);
        expect(s.name).toBe('chat scripted');
        expect(attr(s, 'gen_ai.provider.name')).toBe('scripted');
        expect(attr(s, 'gen_ai.request.model')).toBe('scripted');
        expect(typeof attr(s, 'gen_ai.usage.input_tokens')).toBe('number');
        expect(JSON.parse(attr(s, 'gen_ai.input.messages') as string)[0]).toMatchObject({ role: 'user', parts: [{ type: 'text' }] });
        expect(JSON.parse(attr(s, 'gen_ai.output.messages') as string)[0]).toMatchObject({ role: 'assistant', finish_reason: expect.stringMatching(/^(stop|tool_call)$/) });
      }
      for (const s of spans.filter((x) => attr(x, 'gen_ai.operation.name') === 'execute_tool')) {
        expect(s.name).toBe(`execute_tool ${attr(s, 'gen_ai.tool.name')}`);
        expect(attr(s, 'gen_ai.tool.call.id')).toMatch(/^call_/);
      }
      const root = spans.find((s) => !s.parentSpanId) as OtlpSpan;
      expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
      expect(spans.filter((s) => s !== root).every((s) => spans.some((p) => p.spanId === s.parentSpanId))).toBe(true);

      const other = tmp('other');
      const out = path.join(other, 'imported.json');
      await (await import('node:fs/promises')).mkdir(other, { recursive: true });
      const imported = await runCliProcess(['import', traceFile, '-o', out, '--home', other]);
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stderr).toContain('OpenTelemetry trace with GenAI spans (OTLP/JSON)');
      expect(imported.stderr).not.toContain('not kept');
      const back = JSON.parse(await readFile(out, 'utf8')) as Thread;
      expect(messagesOf(back.context.messages)).toEqual(messagesOf(thread.context.messages));
      expect(back.context.systemPrompt).toBe(thread.context.systemPrompt);
      expect(back.context.tools.map((t) => t.name)).toEqual(thread.context.tools.map((t) => t.name));
      expect(back.runRefs.map((r) => r.id)).toEqual([runId]);
      const [runFile] = await readdir(path.join(other, 'runs', back.id));
      const backRun = JSON.parse(await readFile(path.join(other, 'runs', back.id, runFile), 'utf8')) as RunRecord;
      expect(treeOf(backRun)).toEqual(treeOf(run));
      expect(backRun.mode).toBe(run.mode);
    }, 120_000);
  }
});
