/**
 * The built-in tools that talk to the person or the run rather than to files: `todo_write`,
 * `ask_user_question` (the tool node waits in `awaiting_input` with a question form, as an MCP
 * elicitation does) and `sleep`.
 */
import type { ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput, toolOutput } from '../../../shared/thread/tool-output';
import type { Answers, Question, QuestionRequest, TodoItem, TodoList } from '../../../shared/tools/builtin-results';
import type { ToolContext } from '../types';

/** Longest `sleep`, seconds. */
export const MAX_SLEEP_SECONDS = 300;

type Args = Record<string, unknown>;

/** `todo_write`: the new list, as `{kind:'todo', items}`; also on the node's attrs (`todo`). */
export function todoWriteTool(a: Args, ctx: ToolContext): ToolOutput {
  const items = (Array.isArray(a.items) ? a.items : []) as TodoItem[];
  const mark = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
  ctx.setAttrs({ todo: items });
  const text = items.length ? items.map((i) => `${mark[i.status]} ${i.content}`).join('\n') : '(the todo list is empty)';
  return { ...toolOutput(text), structuredContent: { kind: 'todo', items } satisfies TodoList };
}

/**
 * `ask_user_question`: waits for the person's answers. The node's `inputRequest` is
 * `{kind:'question', questions}`; the answer the host sends is `{kind:'answers', answers}`.
 */
export async function askUserQuestionTool(a: Args, ctx: ToolContext): Promise<ToolOutput> {
  const questions = (Array.isArray(a.questions) ? a.questions : []) as Question[];
  const ids = new Set(questions.map((q) => q.id));
  if (ids.size !== questions.length) return toolErrorOutput('ask_user_question: two questions have the same id.');
  let answer: unknown;
  try {
    answer = await ctx.awaitInput({ kind: 'question', questions } satisfies QuestionRequest);
  } catch {
    return toolErrorOutput('ask_user_question: the run was cancelled before the person answered.');
  }
  const raw = (answer as { kind?: unknown; answers?: unknown } | null)?.answers;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return toolErrorOutput('ask_user_question: the person declined to answer.');
  const answers: Record<string, string> = {};
  for (const q of questions) {
    const v = (raw as Record<string, unknown>)[q.id];
    answers[q.id] = typeof v === 'string' ? v : '';
  }
  const text = questions.map((q) => `${q.question}\n→ ${answers[q.id] || '(no answer)'}`).join('\n\n');
  return { ...toolOutput(text), structuredContent: { kind: 'answers', answers } satisfies Answers };
}

/** `sleep`: waits, ending early (as an error) when the run is cancelled. */
export function sleepTool(a: Args, signal: AbortSignal): Promise<ToolOutput> {
  const seconds = Math.min(Math.max(typeof a.seconds === 'number' ? a.seconds : 0, 0), MAX_SLEEP_SECONDS);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(signal.aborted ? toolErrorOutput(`sleep: cancelled before ${seconds} s passed.`) : toolOutput(`Slept ${seconds} s.`));
    };
    const timer = setTimeout(done, seconds * 1000);
    signal.addEventListener('abort', done, { once: true });
    if (signal.aborted) done();
  });
}
