import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { judgeResult, judgeThread, readVerdict } from './judge';
import { validateThread } from '../../../shared/thread/validate';
import { renderThread } from '../../../shared/template/thread-render';

describe('the LLM judge', () => {
  it('reads a JSON verdict anywhere in the answer, or "score: N"; a score outside 1–5 or none is a problem', () => {
    expect(readVerdict('{"score": 4, "reason": "close"}')).toEqual({ score: 4, reason: 'close' });
    expect(readVerdict('Sure.\n```json\n{"score":2,"reason":"misses {x}"}\n```')).toEqual({ score: 2, reason: 'misses {x}' });
    expect(readVerdict('Score: 5 — perfect')).toEqual({ score: 5, reason: 'Score: 5 — perfect' });
    expect(readVerdict('{"score": 9}')).toEqual({ problem: 'the judge gave a score of 9, outside 1–5' });
    expect(readVerdict('looks fine')).toMatchObject({ problem: expect.stringMatching(/has no score/) });
  });

  it('never throws, whatever the model answers', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (s) => void readVerdict(s)));
    fc.assert(fc.property(fc.array(fc.constantFrom('{', '}', '"score":', '3', ' ', 'x'), { maxLength: 300 }), (parts) => void readVerdict(parts.join(''))));
  });

  it('passes at or above the threshold (default 3), and an answer without a score is an error', () => {
    const a = { type: 'judge' as const, rubric: 'Polite' };
    expect(judgeResult(a, { text: '{"score":3,"reason":"ok"}' })).toEqual({ type: 'judge', status: 'pass', score: 3, reason: '3/5: ok' });
    expect(judgeResult({ ...a, threshold: 4 }, { text: '{"score":3,"reason":"ok"}' })).toEqual({ type: 'judge', status: 'fail', score: 3, reason: '3/5 (below 4): ok' });
    expect(judgeResult(a, { text: 'no idea' }).status).toBe('error');
    expect(judgeResult(a, { error: 'no key' })).toEqual({ type: 'judge', status: 'error', reason: 'the judge could not run: no key' });
  });

  it('builds a valid one-message thread with the rubric, the variables, the expected value and the output', () => {
    const t = judgeThread(
      { type: 'judge', rubric: 'Names the capital', model: 'openai/gpt-4o-mini' },
      { provider: 'scripted', id: 's', params: {} },
      { status: 'completed', finalText: 'Paris', toolCalls: [{ name: 'search', arguments: { q: 'France' } }], turns: 2, inputTokens: 0, outputTokens: 0 },
      { country: 'France' },
      'Paris',
      'Judge · a',
    );
    expect(validateThread(t).ok).toBe(true);
    expect(t.model).toEqual({ provider: 'openai', id: 'gpt-4o-mini', params: {} });
    const text = (t.context.messages[0].content[0] as { text: string }).text;
    expect(text).toContain('RUBRIC:\nNames the capital');
    expect(text).toContain('"country": "France"');
    expect(text).toContain('EXPECTED:\nParis');
    expect(text).toContain('TOOL CALLS MADE:\nsearch({"q":"France"})');
    expect(text.endsWith('OUTPUT:\nParis')).toBe(true);
  });

  it('sends the judge the output, the variables and the expected value byte for byte, template syntax included', async () => {
    const output = 'Write {{ user.name }} to print the name.\nUse {% for x in items %}…{% endfor %} or {% if x %}. {# note #} {{ who }}';
    const vars = { who: '{{ who }}', loop: '{% for i in range(0, 3) %}{{ i }}{% endfor %}' };
    const expected = 'Something like {{ user.name }} and {% if';
    const t = judgeThread(
      { type: 'judge', rubric: 'Explains {{ Jinja }} loops' },
      { provider: 'scripted', id: 's', params: {} },
      { status: 'completed', finalText: output, toolCalls: [], turns: 1, inputTokens: 0, outputTokens: 0 },
      vars,
      expected,
      'Judge · b',
    );
    t.context.variables = { who: 'Ada' };
    expect(validateThread(t).ok).toBe(true);
    const before = (t.context.messages[0].content[0] as { text: string }).text;
    const r = await renderThread(t, { read: async () => ({ kind: 'missing' }), workingDirectory: '/ws', now: new Date() });
    const text = (r.thread.context.messages[0].content[0] as { text: string }).text;
    expect(text).toBe(before);
    expect(text.endsWith(`OUTPUT:\n${output}`)).toBe(true);
    expect(text).toContain(`EXPECTED:\n${expected}`);
    expect(text).toContain(JSON.stringify(vars, null, 2));
    expect(r.renders.places).toEqual({});
  });
});
