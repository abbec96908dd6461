// LLM Space 4.x thread files (packages/core/src/types/threads/thread.ts): images in both spellings,
// typed variables, frozen values, scenarios, run history, evaluations, built-in tools.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectFormat, importDocument, ImportError, importThread } from './index';
import { validateThread } from '../validate';
import { Value } from '@sinclair/typebox/value';
import { RunRecordSchema } from '../../protocol/contract/host-methods';
import type { AssistantMessage, UserMessage } from '../messages';

const FIX = path.resolve(__dirname, '../../../tests/fixtures/threads/llmspace-v4.json');
const raw = (): Record<string, any> => JSON.parse(readFileSync(FIX, 'utf8'));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** Every base64 image string in a value (`{ type: image|image_data, data }`), blob refs resolved through `blobs`. */
function images(v: unknown, blobs: Record<string, string> = {}): string[] {
  if (Array.isArray(v)) return v.flatMap((x) => images(x, blobs));
  if (!v || typeof v !== 'object') return [];
  const o = v as Record<string, unknown>;
  if ((o.type === 'image' || o.type === 'image_data') && typeof o.data === 'string') {
    return [o.data.startsWith('blob:sha256:') ? blobs[o.data.slice(12)] : o.data];
  }
  return Object.entries(o).flatMap(([k, x]) => (k === 'blobs' ? [] : images(x, blobs)));
}

describe('LLM Space 4.x thread file', () => {
  const doc = raw();
  const r = importDocument(doc);
  const t = r.thread;
  const [user, a1, a2] = t.context.messages as [UserMessage, AssistantMessage, AssistantMessage];

  it('is detected and imports to a valid thread', () => {
    expect(detectFormat(doc)).toBe('llmspace');
    expect(r.format).toBe('llmspace');
    expect(validateThread(t)).toEqual({ ok: true, thread: t });
  });

  it('keeps images in both spellings, packed ones unpacked, in messages and tool outputs', () => {
    expect(user.content).toEqual([
      { type: 'text', text: 'Triage this for {{product}}: the save button does nothing.' },
      { type: 'image', mimeType: 'image/png', data: PNG },
      { type: 'image', mimeType: 'image/gif', data: doc.blobs[Object.keys(doc.blobs)[0]] },
    ]);
    expect(a1.toolCalls![0].output).toEqual({ content: [{ type: 'text', text: 'captured' }, { type: 'image', mimeType: 'image/png', data: PNG }], isError: false });
    // Nothing lost: every image of the file, the run history's included, is in the thread or its runs.
    expect(images(r.thread).concat(images(r.runs.map((x) => x.messages))).sort()).toEqual(images(doc, doc.blobs).sort());
  });

  it('keeps typed variables, computed ones with their frozen values, and the active scenario', () => {
    expect(t.context.variables).toEqual({
      current_date: 'Tuesday, December 1, 2026',
      current_working_directory: '~/Desktop/llm-space-project',
      available_skills: '<skills><skill name="triage"/></skills>',
      severity_map: '{"blocker":1,"high":2}',
      style_guide: 'docs/style.md',
      product: 'Acme Web',
      tone: 'terse',
    });
    expect(t.context.variableTypes).toEqual({ severity_map: 'json', style_guide: 'file' });
    expect(t.context.scenarios).toEqual([
      { name: 'web', variables: { product: 'Acme Web', tone: 'terse' } },
      { name: 'mobile', variables: { product: 'Acme Mobile', tone: 'friendly' } },
    ]);
    expect(t.context.scenario).toBe('web');
    const notes = r.notes.map((n) => n.pointer);
    expect(notes).toContain('/context/variables/current_date');
    expect(notes).toContain('/context/variables/available_skills');
    expect(r.notes.find((n) => n.pointer === '/context/variables/current_date')!.message).toMatch(/currentDate.*readable-date.*frozen value "Tuesday, December 1, 2026"/);
  });

  it('keeps function, MCP (current shape) and built-in tools with their definitions', () => {
    expect(t.context.tools.map((x) => [x.type, x.name])).toEqual([
      ['function', 'create_issue'],
      ['mcp', 'mcp__github__search_issues'],
      ['builtin', 'ask_user_question'],
      ['builtin', 'take_screenshot'],
    ]);
    expect(t.context.tools[1]).toMatchObject({ server: 'github', toolName: 'search_issues', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
    expect(t.context.tools[2]).toEqual({
      type: 'builtin', name: 'ask_user_question', description: 'Ask the user a question and wait for the answer.',
      parameters: doc.context.tools[2].parameters, config: { origin: 'llmspace', icon: 'message-circle-question', terminate: true }, requiresApproval: true,
    });
  });

  it('keeps usage, timing and thinking; notes the cost it cannot keep', () => {
    expect(a1.content[0]).toEqual({ type: 'thinking', thinking: 'I need a screenshot first.' });
    expect(a1.usage).toEqual({ inputTokens: 420, outputTokens: 35, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 12 });
    expect(a1.timing).toEqual({ firstTokenMs: 310, durationMs: 1450 });
    expect(a2.toolCalls![0].output).toEqual({ content: [{ type: 'text', text: 'issue #41' }], isError: false });
    expect(r.notes.map((n) => n.pointer)).toContain('/context/messages/1/usage/cost');
    expect(r.notes.map((n) => n.pointer)).toContain('/modelName');
  });

  it('turns the run history into run records listed in runRefs', () => {
    expect(r.runs.map((x) => x.runId)).toEqual(['run-a', 'run-b']);
    for (const run of r.runs) expect(Value.Errors(RunRecordSchema, run).First()).toBeUndefined();
    expect(t.runRefs).toEqual([
      { id: 'run-a', startedAt: 1764590000000, endedAt: 1764590000000, status: 'completed', mode: 'step', preview: 'Let me look at the screen.', usage: { inputTokens: 420, outputTokens: 35, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 12 } },
      expect.objectContaining({ id: 'run-b', mode: 'react', preview: 'Filed: Save button unresponsive (severity high).' }),
    ]);
    const [ra, rb] = r.runs;
    expect(ra.threadId).toBe(t.id);
    expect(ra.baseMessageIds).toEqual([]);
    expect((ra.messages as { id: string }[]).map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(ra.nodes.map((n) => [n.kind, n.name, n.parentId ?? null])).toEqual([['run', 'LLM Space run', null], ['llm', 'gpt-4.1', 'run-a'], ['tool', 'take_screenshot', 'run-a.llm1']]);
    expect(rb.nodes.filter((n) => n.kind === 'llm').map((n) => n.model)).toEqual(['openai/gpt-4.1-mini', 'openai/gpt-4.1-mini']);
    // Each run keeps the values its prompts were run with.
    expect((ra.nodes[0].attrs!.snapshot as Record<string, unknown>).frozenVariables).toEqual({ systemPrompt: { current_date: 'Monday, November 30, 2026' } });
    expect((rb.nodes[0].attrs!.snapshot as Record<string, unknown>).variableVariants).toEqual(doc.context.variableVariants);
  });

  it('keeps evaluations (verdict, note, rubric scores per run) and rubrics', () => {
    expect(t.evaluations).toEqual([
      {
        id: 'ev1', runA: 'run-a', runB: 'run-b', verdict: 'b', note: 'B filed the issue.', createdAt: 1764594000000, updatedAt: 1764594100000,
        rubric: { id: 'rub1', name: 'Triage quality', revision: 2, criteria: [{ id: 'c1', name: 'Accuracy', description: 'Right severity' }, { id: 'c2', name: 'Brevity' }] },
        runScores: [
          { runId: 'run-a', scores: [{ criterionId: 'c1', score: 2 }, { criterionId: 'c2', score: 4 }] },
          { runId: 'run-b', scores: [{ criterionId: 'c1', score: 5 }, { criterionId: 'c2', score: 4 }] },
        ],
      },
      { id: 'ev2', runA: 'run-a', runB: 'run-b', verdict: 'tie', createdAt: 1764594200000, updatedAt: 1764594200000 },
    ]);
    expect(t.rubrics).toEqual([expect.objectContaining({ id: 'rub1', revision: 2, createdAt: 1764593000000 })]);
  });

  it('a thread file opened in place (no host to write runs) has no run refs', () => {
    expect(importThread(doc).runRefs).toEqual([]);
  });

  it('names the place of a fault', () => {
    const bad = raw();
    bad.context.messages[0].content[2].data = 'blob:sha256:0000';
    expect(() => importDocument(bad)).toThrow(/\/context\/messages\/0\/content\/2\/data: image refers to blob 0000/);
    const bad2 = raw();
    bad2.evaluations[0].runScores[1].scores[0].score = 9;
    expect(() => importDocument(bad2)).toThrow(/\/evaluations\/0\/runScores\/1\/scores\/0: expected \{ criterionId, score: 1–5 \}/);
    const bad3 = raw();
    bad3.context.variables['2x'] = { type: 'json', value: '1' };
    expect(() => importDocument(bad3)).toThrow(/\/context\/variables\/2x: "2x" is not a variable name/);
    const bad4 = raw();
    bad4.runHistory[1].timestamp = 'yesterday';
    expect(() => importDocument(bad4)).toThrow(/\/runHistory\/1\/timestamp/);
  });

  it('never throws anything but an ImportError on arbitrary JSON, or on the file with any one value replaced', () => {
    const check = (v: unknown) => {
      try {
        const res = importDocument(v, { format: 'llmspace' });
        expect(validateThread(res.thread).ok).toBe(true);
      } catch (err) {
        if (!(err instanceof ImportError)) throw err;
        expect(err.message).toMatch(/^cannot import LLM Space thread file: /);
      }
    };
    fc.assert(fc.property(fc.jsonValue(), check), { numRuns: 300 });
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]) => {
      if (p.length) paths.push(p);
      if (v && typeof v === 'object' && p.length < 9) for (const [k, x] of Object.entries(v)) if (k !== 'blobs') walk(x, [...p, k]);
    };
    walk(doc, []);
    fc.assert(
      fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }), (p, value) => {
        const copy = raw();
        let o = copy;
        for (const k of p.slice(0, -1)) o = o[k];
        o[p.at(-1)!] = value;
        check(copy);
      }),
      { numRuns: 400 },
    );
  });
});
