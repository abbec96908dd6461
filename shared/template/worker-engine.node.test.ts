/**
 * The worker template engine (the host's, and a runner's for agent tools), here over its
 * worker-thread fallback (a unit test starts no process; the worker process is tested in
 * tests/integration/host/template-memory.test.ts): texts render in the worker, the same as in process; a
 * template that would hold the host (a loop too long, a range of a billion items, text without
 * end) fails with an error naming the place and the bound, while the host's event loop keeps
 * answering, and the next render works.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { threadWith } from '../../tests/support/threads';
import type { Thread } from '../thread/schema';
import { PlaceError, renderThread } from './thread-render';
import type { FileLookup } from './render';
import { WorkerTemplateEngine } from './worker-engine.node.js';
import { threadTemplateWorker } from './worker-link.node.js';

const engine = new WorkerTemplateEngine({ entry: fileURLToPath(new URL('./worker.node.ts', import.meta.url)), start: threadTemplateWorker });
afterAll(() => engine.close());

const files: Record<string, string> = { 'parts/rules.md': 'Rule {{ n }}: {% if n > 1 %}many{% else %}one{% endif %}', 'nested.md': '[{{@include("parts/rules.md")}}]' };
const read = async (p: string): Promise<FileLookup> => (p in files ? { kind: 'file', text: files[p] } : { kind: 'missing' });

function threadOf(systemPrompt: string): Thread {
  const t = threadWith({ systemPrompt });
  t.context.variables = { n: '2', who: 'Ada', profile: '{"name":"grace","tags":["a","b"]}' };
  t.context.variableTypes = { profile: 'json' };
  return t;
}

const render = (text: string, inWorker = true) =>
  renderThread(threadOf(text), { read, workingDirectory: '/ws', now: new Date(2026, 0, 5), ...(inWorker ? { engine: engine.engine } : {}) }).then((r) => r.thread.context.systemPrompt);

async function failure(text: string): Promise<PlaceError> {
  const err = await render(text).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(PlaceError);
  return err as PlaceError;
}

/** Resolves when the event loop has run a timer: the host answers while the worker renders. */
const hostTurn = () => new Promise<'host'>((resolve) => setTimeout(() => resolve('host'), 1));

describe('rendering in the worker thread', () => {
  it('renders as in process: variables, JSON, filters, loops, includes, unknown names', async () => {
    const texts = [
      'Hi {{ who }} {{ unknown }}',
      '{{ profile.name | upper }}: {% for t in profile.tags %}{{ loop.index }}={{ t }} {% endfor %}',
      '{{@include("nested.md")}} {{ exists("parts/rules.md") }} {{ exists("nope.md") }}',
      '{{ current_date }} {{ range(3) | join(",") }}',
    ];
    for (const t of texts) expect(await render(t)).toBe(await render(t, false));
    expect(await render(texts[2])).toBe('[Rule 2: many] true false');
  });

  it('a template error keeps its place, line and column', async () => {
    const err = await failure('ok\n  {% iff x %}');
    expect(err.message).toBe('systemPrompt, line 2, column 6: unknown block tag: iff');
  });

  it('range(0, 3000000) and range(0, 1e9) are refused at once, naming the place', async () => {
    expect((await failure('{% for i in range(0, 3000000) %}{% endfor %}')).message).toBe(
      'systemPrompt, line 1, column 18: range(0, 3000000, 1) has more than 1000000 items: a loop that long is refused',
    );
    expect((await failure('{% for i in range(0, 1000000000) %}x{% endfor %}')).message).toMatch(/^systemPrompt, line 1, column \d+: range\(0, 1000000000, 1\) has more than 1000000 items/);
  });

  it('a render past the time budget is stopped while the host keeps answering, and the next render works', async () => {
    const slow = render('{% for i in range(0, 1000000) %}{% for j in range(0, 1000000) %}{% endfor %}{% endfor %}').then(() => 'rendered', (e: unknown) => e);
    expect(await Promise.race([slow, hostTurn()])).toBe('host');
    const err = await slow;
    expect(err).toBeInstanceOf(PlaceError);
    expect((err as PlaceError).message).toBe('systemPrompt: rendering took longer than 2 s (a loop too long?) and was stopped');
    expect(await render('Hi {{ who }}, {{ profile.name }}')).toBe('Hi Ada, grace');
  });

  it('text past the size bound is refused', async () => {
    const err = await failure('{% set s = "xxxxxxxxxxxxxxxx" %}{% for i in range(0, 21) %}{% set s = s ~ s %}{% endfor %}{{ s }}');
    expect(err.message).toBe('systemPrompt: the rendered text is longer than 16 Mi characters');
  });

  it('renders in process, with the same text and bounds, when no worker can start', async () => {
    const said: string[] = [];
    const broken = new WorkerTemplateEngine({ entry: '/nonexistent/template-worker.js', start: threadTemplateWorker, log: (m) => said.push(m) });
    const inBroken = (text: string) => renderThread(threadOf(text), { read, workingDirectory: '/ws', now: new Date(2026, 0, 5), engine: broken.engine }).then((r) => r.thread.context.systemPrompt);
    expect(await inBroken('{{@include("nested.md")}} {{ who }}')).toBe('[Rule 2: many] Ada');
    await expect(inBroken('{% for i in range(0, 1000000000) %}{% endfor %}')).rejects.toThrow(/has more than 1000000 items/);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/^templates render in the process's own thread: /);
    await broken.close();
  });
});
