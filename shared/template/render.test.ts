/**
 * The template engine against the examples of LLM Space's template documentation
 * (docs/variables-and-templates.md of github.com/llm-space/llm-space): each renders to the
 * output that page gives or implies. Plus: text without template syntax is unchanged, include
 * escapes are refused, and errors carry their line and column.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { threadWith } from '../../tests/support/threads';
import type { Thread } from '../thread/schema';
import type { FileLookup } from './render';
import { PlaceError, renderThread } from './thread-render';

const NOW = new Date(2026, 6, 20, 9, 5, 3); // local time: Monday 20 July 2026

function threadOf(systemPrompt: string, variables: Record<string, string> = {}, types: Record<string, 'text' | 'json' | 'file'> = {}): Thread {
  const t = threadWith({ systemPrompt });
  t.context.variables = variables;
  t.context.variableTypes = types;
  return t;
}

/** Renders `text` as a system prompt with the given variables and workspace files. */
async function render(text: string, variables: Record<string, string> = {}, types: Record<string, 'text' | 'json' | 'file'> = {}, files: Record<string, string> = {}): Promise<string> {
  const read = async (p: string): Promise<FileLookup> => (p in files ? { kind: 'file', text: files[p] } : { kind: 'missing' });
  const r = await renderThread(threadOf(text, variables, types), { read, workingDirectory: '/ws', now: NOW });
  return r.thread.context.systemPrompt;
}

async function renderError(text: string, variables: Record<string, string> = {}, types: Record<string, 'text' | 'json' | 'file'> = {}): Promise<PlaceError> {
  const err = await render(text, variables, types).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PlaceError);
  return err as PlaceError;
}

const profile = JSON.stringify({ user: { name: 'Ada', plan: 'pro' }, features: ['search', 'code', 'vision'], limits: { maxTokens: 4096 } });

describe('LLM Space documentation examples', () => {
  it('conditionals: if / elif / else on text variables', async () => {
    const t = '{% if company_name %}\nYou represent {{company_name}}.\n{% elif region %}\nOperate under {{region}} guidelines.\n{% else %}\nUse the default policy.\n{% endif %}';
    expect(await render(t, { company_name: 'Acme', region: 'EU' })).toBe('\nYou represent Acme.\n');
    expect(await render(t, { company_name: '', region: 'EU' })).toBe('\nOperate under EU guidelines.\n');
    expect(await render(t, { company_name: '', region: '' })).toBe('\nUse the default policy.\n');
  });

  it('conditions are expressions: and / not / in / inline if', async () => {
    const t = '{% if tier == "pro" and not trial %}Full access.{% endif %}\n{% if tags and "urgent" in tags %}Escalate immediately.{% endif %}\n\nMode: {{ "verbose" if debug else "concise" }}';
    expect(await render(t, { tier: 'pro', trial: '', tags: '["urgent"]', debug: 'yes' }, { tags: 'json' })).toBe('Full access.\nEscalate immediately.\n\nMode: verbose');
    expect(await render(t, { tier: 'free', trial: '', tags: '[]', debug: '' }, { tags: 'json' })).toBe('\n\n\nMode: concise');
  });

  it('loops: loop.index over a literal list', async () => {
    const t = '{% for item in ["research", "draft", "review"] %}\n{{ loop.index }}. {{ item }}\n{% endfor %}';
    expect(await render(t)).toBe('\n1. research\n\n2. draft\n\n3. review\n');
  });

  it('loops: for / else over a JSON list, and key, value pairs of an object', async () => {
    const t = '{% for doc in documents %}\n### {{ loop.index }}. {{ doc.title }}\n{{ doc.body }}\n{% else %}\nNo documents provided.\n{% endfor %}\n\n{% for key, value in settings %}\n- {{ key }}: {{ value }}\n{% endfor %}';
    const types = { documents: 'json', settings: 'json' } as const;
    expect(await render(t, { documents: '[{"title":"A","body":"alpha"}]', settings: '{"lang":"en","tone":"dry"}' }, types)).toBe('\n### 1. A\nalpha\n\n\n\n- lang: en\n\n- tone: dry\n');
    expect(await render(t, { documents: '[]', settings: '{}' }, types)).toBe('\nNo documents provided.\n\n\n');
  });

  it('loop.first, loop.last, loop.length, loop.index0', async () => {
    expect(await render('{% for x in [1,2,3] %}{{ loop.index0 }}/{{ loop.length }}{% if loop.first %}F{% endif %}{% if loop.last %}L{% endif %} {% endfor %}')).toBe('0/3F 1/3 2/3L ');
  });

  it('known variables resolve inside templates; unknown placeholders stay as written', async () => {
    expect(await render('{% if true %}Today is {{current_date}}. {{unknown_name}}{% endif %}')).toBe('Today is 2026-07-20, Monday. {{unknown_name}}');
  });

  it('JSON variables: field access, conditionals, loops and the whole value as pretty JSON', async () => {
    const types = { profile: 'json' } as const;
    expect(await render("Hello {{ profile.user.name }} — you're on the {{ profile.user.plan }} plan.", { profile }, types)).toBe("Hello Ada — you're on the pro plan.");
    const cond = '{% if profile.user.plan == "pro" %}\nYou have full access ({{ profile.limits.maxTokens }} tokens).\n{% else %}\nYou are on the free plan.\n{% endif %}';
    expect(await render(cond, { profile }, types)).toBe('\nYou have full access (4096 tokens).\n');
    const loop = 'Enabled features:\n{% for feature in profile.features %}\n- {{ loop.index }}. {{ feature }}\n{% endfor %}';
    expect(await render(loop, { profile }, types)).toBe('Enabled features:\n\n- 1. search\n\n- 2. code\n\n- 3. vision\n');
    expect(await render('Context:\n{{ profile }}', { profile }, types)).toBe(`Context:\n${JSON.stringify(JSON.parse(profile), null, 2)}`);
    expect(await render('[{{ profile.nope }}]', { profile }, types)).toBe('[]');
  });

  it('filters: default, length, join, upper, truncate, chained sort', async () => {
    const types = { profile: 'json', items: 'json' } as const;
    const vars = { profile, items: '["b","c","a"]', notes: 'x'.repeat(300) };
    expect(await render('{{ name | default("there") }}          {# fallback when empty/undefined #}', vars, types)).toBe('{{name}}          ');
    expect(await render('{{ missing_thing.x | default("there") }}', vars, types)).toBe('there');
    expect(await render('{{ profile.features | length }}         {# 3 #}', vars, types)).toBe('3         ');
    expect(await render('{{ profile.features | join(", ") }}     {# search, code, vision #}', vars, types)).toBe('search, code, vision     ');
    expect(await render('{{ profile.user.name | upper }}         {# ADA #}', vars, types)).toBe('ADA         ');
    expect(await render('{{ notes | truncate(200) }}', vars, types)).toBe(`${'x'.repeat(200)}...`);
    expect(await render('{{ items | sort | join(", ") }}', vars, types)).toBe('a, b, c');
  });

  it('@include inlines a workspace file, rendered in turn; a missing file is empty', async () => {
    const files = { 'notes/writing-style.md': 'Write plainly, {{ who }}.', 'a.md': 'A{{@include("b.md")}}', 'b.md': '[b]' };
    expect(await render('{{@include("notes/writing-style.md")}}', { who: 'Ada' }, {}, files)).toBe('Write plainly, Ada.');
    expect(await render('x{{@include("a.md")}}y', {}, {}, files)).toBe('xA[b]y');
    expect(await render('a{{@include("nope.md")}}b', {}, {}, files)).toBe('ab');
  });

  it('exists(path) guards a file', async () => {
    const t = '{% if exists(root ~ "/AGENTS.md") %}FOUND{% else %}MISSING{% endif %}';
    expect(await render(t, { root: 'ws' }, {}, { 'ws/AGENTS.md': '' })).toBe('FOUND');
    expect(await render(t, { root: 'other' }, {}, { 'ws/AGENTS.md': '' })).toBe('MISSING');
  });

  it('file variables inline the contents raw', async () => {
    expect(await render('{{ writing_style }}\n\nFollow the style guide above.', { writing_style: 'style.md' }, { writing_style: 'file' }, { 'style.md': 'Be {{brief}}.' })).toBe('Be {{brief}}.\n\nFollow the style guide above.');
  });

  it('the fuller example', async () => {
    const t = [
      '{{@include("prompts/persona.md")}}', '', '## Task',
      '{% if brief.audience %}Write for: {{ brief.audience }}.{% else %}Write for a general audience.{% endif %}',
      'Tone: {{ brief.tone | default("neutral") }}.', '', '## Sources ({{ brief.sources | length }})',
      '{% for src in brief.sources %}', '- [{{ loop.index }}] {{ src.title }} — {{ src.url }}', '{% else %}', '(none provided)', '{% endfor %}', '',
      '## Checklist', '{% for step in ["outline", "draft", "cite sources", "proofread"] %}', '- [ ] {{ loop.index }}. {{ step }}', '{% endfor %}', '',
      'Current date: {{current_date}}',
    ].join('\n');
    const brief = JSON.stringify({ audience: 'engineers', tone: 'concise', sources: [{ title: 'RFC 9110', url: 'https://www.rfc-editor.org/rfc/rfc9110' }] });
    const out = await render(t, { brief }, { brief: 'json' }, { 'prompts/persona.md': 'You are a careful technical writer.' });
    expect(out).toBe([
      'You are a careful technical writer.', '', '## Task', 'Write for: engineers.', 'Tone: concise.', '', '## Sources (1)', '',
      '- [1] RFC 9110 — https://www.rfc-editor.org/rfc/rfc9110', '', '', '## Checklist', '', '- [ ] 1. outline', '', '- [ ] 2. draft', '',
      '- [ ] 3. cite sources', '', '- [ ] 4. proofread', '', '', 'Current date: 2026-07-20, Monday',
    ].join('\n'));
  });

  it('set, raw and plain placeholders', async () => {
    expect(await render('{% set n = 2 %}{{ n * 3 }} {% raw %}{{ kept }}{% endraw %}')).toBe('6 {{ kept }}');
    expect(await render('Hi {{ name }}, {{other}} and {{ not a name }}', { name: 'Ada' })).toBe('Hi Ada, {{other}} and {{ not a name }}');
  });
});

describe('built-in variables', () => {
  it('current_date formats, current_working_directory, thread_title', async () => {
    expect(await render('{{current_date}}', { current_date: 'iso-date' })).toBe('2026-07-20');
    expect(await render('{{current_date}}', { current_date: 'local-date-time' })).toMatch(/^2026-07-20 09:05:03 GMT[+-]\d\d:\d\d \(.+\)$/);
    expect(await render('{{ current_working_directory }} / {{ thread_title }}')).toBe('/ws / test thread');
  });
});

describe('text without template syntax', () => {
  it('is sent byte for byte as written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }).filter((s) => !/\{[{%#]/.test(s)), async (s) => {
        expect(await render(s, { a: 'A' })).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
});

describe('confinement and sandbox', () => {
  it('a refused include path is an error naming the path, not the file content', async () => {
    const read = async (p: string): Promise<FileLookup> => ({ kind: 'refused', message: `refused path "${p}": '..' would leave the workspace`, exists: false });
    const err = await renderThread(threadOf('ok\n  {{@include("../secret")}}'), { read, workingDirectory: '/ws', now: NOW }).catch((e: unknown) => e as PlaceError);
    expect(err).toBeInstanceOf(PlaceError);
    expect((err as PlaceError).message).toMatch(/^systemPrompt, line 2, column \d+: @include\("\.\.\/secret"\): refused path/);
  });

  it('includes nest at most 10 deep', async () => {
    const err = await render('{{@include("loop.md")}}', {}, {}, { 'loop.md': 'x{{@include("loop.md")}}' }).catch((e: unknown) => e as PlaceError);
    expect((err as PlaceError).message).toContain('includes nest more than 10 deep');
  });

  it('no member lookup reaches constructors, and template tags load nothing', async () => {
    expect((await renderError('{{ "".constructor.constructor("return process")() }}')).message).toMatch(/^systemPrompt, line 1, column \d+: Unable to call .*undefined/);
    expect(await render('[{{ "".constructor }}][{{ x.__proto__ }}][{{ x.prototype }}]', { x: '{}' }, { x: 'json' })).toBe('[][][]');
    // The context object's prototype hands out nothing either: Object.prototype stays as it is.
    expect(await render('[{{ constructor }}][{{ toString }}]')).toBe('[{{ constructor }}][{{ toString }}]');
    expect(await render('{% if true %}[{{ constructor }}][{{ toString }}]{% endif %}')).toBe('[][]');
    const pollute = '{{ constructor.assign(constructor.getPrototypeOf(constructor.getPrototypeOf(range)), { polluted: 1 }) }}';
    expect((await renderError(pollute)).message).toMatch(/Unable to call/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await renderError('{% include "x" %}')).message).toMatch(/^systemPrompt, line 1, column \d+: .*template not found/);
  });

  it('a key that names itself differently each time it is read (cycler().next as toString) reaches no constructor', async () => {
    const g = globalThis as { __stepwisePwned?: number };
    delete g.__stepwisePwned;
    const payload = '{% set c = cycler("x","constructor","constructor") %}{% set k = {toString: c.next} %}{{ range[k]("globalThis.__stepwisePwned = 1")() }}';
    const e = await renderError(payload);
    expect(e.message).toMatch(/Unable to call/);
    expect(g.__stepwisePwned).toBeUndefined();
    // Any object as a key: looked up by the one name it gave.
    expect(await render('{% set c = cycler("a","constructor") %}{% set k = {toString: c.next} %}[{{ d[k] }}]', { d: '{"a":"A","constructor":"C"}' }, { d: 'json' })).toBe('[A]');
  });
});

describe('errors', () => {
  it('name the place, line and column of a parse error', async () => {
    const e = await renderError('Hello\n  {% iff x %}');
    expect(e.message).toBe('systemPrompt, line 2, column 6: unknown block tag: iff');
    expect([e.error.line, e.error.column]).toEqual([2, 6]);
  });

  it('name the line and column of an unclosed block and of a bad variable', async () => {
    expect((await renderError('a\n{% for x in y %}')).message).toMatch(/^systemPrompt, line 2, column 17: .*end of file/);
    // In the reader's words, without the name of Nunjucks' parser function ("parseIf: …").
    expect((await renderError('a\n{% if x %}')).message).toMatch(/^systemPrompt, line 2, column \d+: expected elif, else, or endif, got end of file$/);
    expect((await renderError('one\ntwo {{ data.x }}', { data: '{bad' }, { data: 'json' })).message).toMatch(/^systemPrompt, line 2, column \d+: variable "data" is not valid JSON/);
  });

  it('inside an included file name that file', async () => {
    const err = await render('x\n{{@include("p.md")}}', {}, {}, { 'p.md': 'a\nb {% endif %}' }).catch((e: unknown) => e as PlaceError);
    expect((err as PlaceError).message).toMatch(/^systemPrompt, line 2, column 6 of p\.md: /);
  });
});
