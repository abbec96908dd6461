/**
 * Built-in tool results in the browser (issue 20): a thread whose tool calls already hold an
 * edit's file change, a bash run and a todo list shows the unified diff with its added and
 * removed lines marked, the terminal with exit code, stdout, stderr and badges, and the latest
 * todo list; a stored run of the same calls shows them in its execution-tree rows and the Detail
 * panel, a held bash call shows its command line and a held edit its diff (`attrs.preview`), and
 * an ask_user_question waiting for input offers its question form, whose answer goes out with `run.input`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, shot, type ServeProcess } from './fixtures';

const DIFF = '--- a/math.js\n+++ b/math.js\n@@ -1,3 +1,3 @@\n export function add(a, b) {\n-  return a - b;\n+  return a + b;\n }\n';
const FILE_CHANGE = { kind: 'file_change', path: 'math.js', before: 'export function add(a, b) {\n  return a - b;\n}\n', after: 'export function add(a, b) {\n  return a + b;\n}\n', diff: DIFF };
const BASH = { kind: 'bash', command: 'node --test', exitCode: 1, stdout: '# pass 1\n# fail 1\n', stderr: 'AssertionError: 1 !== 5\n', timedOut: false, truncated: true };
const TODO = { kind: 'todo', items: [{ content: 'Read math.js', status: 'completed' }, { content: 'Fix add', status: 'in_progress' }, { content: 'Run the tests', status: 'pending' }] };
const QUESTION = { kind: 'question', questions: [{ id: 'scope', question: 'Fix only add?', options: ['yes', 'no'] }, { id: 'note', question: 'Anything else?' }] };

const out = (text: string, structuredContent: unknown) => ({ content: [{ type: 'text', text }], isError: false, structuredContent });

/** A thread whose assistant message holds edit, bash and todo_write calls with results, and a stored run of them. */
function writeThread(serve: ServeProcess): { runId: string } {
  const id = crypto.randomUUID();
  const runId = crypto.randomUUID();
  const t0 = Date.now() - 5000;
  const calls = [
    { id: 'call-edit', name: 'edit', arguments: { path: 'math.js', old_string: 'return a - b;', new_string: 'return a + b;' }, output: out('Edited math.js', FILE_CHANGE) },
    { id: 'call-bash', name: 'bash', arguments: { command: 'node --test' }, output: out('exit 1', BASH) },
    { id: 'call-todo', name: 'todo_write', arguments: { todos: TODO.items }, output: out('3 todos', TODO) },
    { id: 'call-held', name: 'bash', arguments: { command: 'rm -rf build' } },
  ];
  const thread = {
    version: 1,
    id,
    title: 'Tool results',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    context: {
      systemPrompt: '',
      tools: ['edit', 'bash', 'todo_write', 'ask_user_question'].map((name) => ({ type: 'builtin', name })),
      messages: [
        { id: crypto.randomUUID(), role: 'user', content: [{ type: 'text', text: 'Fix the test.' }] },
        { id: crypto.randomUUID(), role: 'assistant', content: [{ type: 'text', text: 'On it.' }], toolCalls: calls },
      ],
    },
    runRefs: [{ id: runId, startedAt: t0, endedAt: t0 + 1000, status: 'completed', mode: 'react' }],
  };
  writeFileSync(path.join(serve.home, 'workspace', 'Tool results.json'), JSON.stringify(thread));
  const node = (nid: string, name: string, extra: Record<string, unknown>) => ({ id: nid, runId, parentId: 'llm', kind: 'tool', name, startedAt: t0 + 100, ...extra });
  const record = {
    runId,
    threadId: id,
    mode: 'react',
    status: 'completed',
    startedAt: t0,
    endedAt: t0 + 1000,
    records: [],
    nodes: [
      { id: 'root', runId, kind: 'run', name: 'react', status: 'completed', startedAt: t0, endedAt: t0 + 1000 },
      { id: 'llm', runId, parentId: 'root', kind: 'llm', name: 'scripted', status: 'completed', startedAt: t0, endedAt: t0 + 50, output: { text: 'On it.' } },
      node('n-edit', 'edit', { status: 'completed', endedAt: t0 + 200, input: calls[0].arguments, output: calls[0].output, toolCallId: 'call-edit' }),
      node('n-bash', 'bash', { status: 'completed', endedAt: t0 + 300, input: calls[1].arguments, output: calls[1].output, toolCallId: 'call-bash' }),
      node('n-held-bash', 'bash', { status: 'awaiting_input', toolCallId: 'call-held', input: { command: 'rm -rf build' }, attrs: { preview: { kind: 'bash', command: 'rm -rf build', cwd: '~/project' } } }),
      node('n-held-edit', 'edit', { status: 'awaiting_input', input: {}, attrs: { preview: { kind: 'file_change', path: 'math.js', diff: DIFF } } }),
      node('n-ask', 'ask_user_question', { status: 'awaiting_input', input: { questions: QUESTION.questions }, attrs: { inputRequest: QUESTION } }),
    ],
  };
  mkdirSync(path.join(serve.home, 'runs', id), { recursive: true });
  writeFileSync(path.join(serve.home, 'runs', id, `${runId}.json`), JSON.stringify(record));
  return { runId };
}

test('file diffs, the bash terminal and the todo list in the playground', async ({ page, serve }) => {
  writeThread(serve);
  await page.goto(serve.url);
  await page.getByRole('treeitem', { name: 'thread Tool results' }).click();
  const edit = page.getByLabel('tool call edit', { exact: true });
  const diff = edit.getByRole('figure', { name: 'Diff of math.js' });
  await expect(diff).toBeVisible();
  await expect(diff.locator('[data-kind="del"]')).toHaveText(['2-  return a - b;']);
  await expect(diff.locator('[data-kind="add"]')).toHaveText(['2+  return a + b;']);
  await expect(diff.locator('[data-kind="context"]')).toHaveCount(2);
  // Added and removed lines are coloured apart.
  const bg = (kind: string) => diff.locator(`[data-kind="${kind}"]`).first().evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
  expect(await bg('add')).not.toBe(await bg('del'));
  expect(await bg('add')).not.toBe('rgba(0, 0, 0, 0)');
  await expect(edit).toContainText('+1');
  await expect(edit).toContainText('changed');

  const bash = page.getByLabel('tool call bash 1', { exact: true });
  const term = bash.getByRole('log', { name: 'Terminal: node --test' });
  await expect(term).toContainText('$ node --test');
  await expect(term.getByLabel('stdout')).toHaveText('# pass 1\n# fail 1\n');
  await expect(term.getByLabel('stderr')).toHaveText('AssertionError: 1 !== 5\n');
  await expect(bash.getByLabel('exit status: exit 1')).toBeVisible();
  await expect(bash.getByText('output truncated')).toBeVisible();
  await expect(bash.getByText('timed out')).toHaveCount(0);

  const todo = page.getByRole('list', { name: "Agent's todo list" });
  await expect(todo.getByRole('listitem')).toHaveText([/Read math.js/, /Fix add/, /Run the tests/]);
  await expect(todo.getByRole('listitem', { name: 'Fix add, in progress' })).toBeVisible();
  await expect(todo).toContainText('1 of 3 done');
  await shot(page, '30-tool-results');
});

test('a stored run shows results in its rows and Detail, held calls their preview, and the question form posts its answer', async ({ page, serve }) => {
  const { runId } = writeThread(serve);
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => frames.push(String(f.payload))));
  await page.goto(`${serve.url}#thread=Tool+results.json&run=${runId}`);
  const tree = page.getByRole('tree', { name: 'Execution tree' });
  const editRow = tree.getByRole('treeitem', { name: 'tool edit, completed' });
  await expect(editRow.getByRole('figure', { name: 'Diff of math.js' })).toBeVisible({ timeout: 30_000 });
  await expect(tree.getByRole('treeitem', { name: 'tool bash, completed' }).getByRole('log', { name: 'Terminal: node --test' })).toBeVisible();

  // Held for approval: the command line of bash, the diff of the edit.
  const heldBash = tree.getByRole('treeitem', { name: 'tool bash, awaiting input' });
  await expect(heldBash.getByLabel('Proposed command')).toHaveText('$ rm -rf build');
  await expect(heldBash).toContainText('~/project');
  // The playground's card of the held call shows it too, next to Run tool.
  const card = page.getByLabel('tool call bash 2', { exact: true });
  await expect(card.getByLabel('Proposed command')).toHaveText('$ rm -rf build');
  await expect(card.getByRole('button', { name: 'Run tool' })).toBeVisible();
  const heldEdit = tree.getByRole('treeitem', { name: 'tool edit, awaiting input' });
  await expect(heldEdit.getByRole('figure', { name: 'Proposed diff of math.js' }).locator('[data-kind="add"]')).toHaveText(['2+  return a + b;']);

  // The Detail panel draws the whole result.
  await tree.getByRole('treeitem', { name: 'tool bash, completed' }).click();
  await expect(page.getByRole('button', { name: 'Terminal' })).toBeVisible();

  // The question form: every question needs an answer, then run.input carries them.
  const form = tree.getByRole('treeitem', { name: 'tool ask_user_question, awaiting input' }).getByLabel('Questions from the agent');
  const send = form.getByRole('button', { name: 'Send answers' });
  await expect(send).toBeDisabled();
  await form.getByRole('radio', { name: 'yes' }).check();
  await form.getByRole('textbox', { name: 'Anything else?' }).fill('Keep the style.');
  await expect(send).toBeEnabled();
  await send.click();
  const input = () => frames.map((f) => JSON.parse(f) as { method?: string; params?: unknown }).find((f) => f.method === 'run.input');
  await expect.poll(() => input()?.params).toEqual({ runId, nodeId: 'n-ask', value: { kind: 'answers', answers: { scope: 'yes', note: 'Keep the style.' } } });
  await shot(page, '31-tool-results-run');
});
