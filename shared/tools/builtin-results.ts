/**
 * What the built-in tools (shared/thread/builtin-tools.ts) put in a result's
 * `structuredContent`, typed once for the runner that writes them
 * (agent-runner/tools/builtin/*) and the UI that draws them; and the readers that take such a
 * value back from a thread file, defensively (a file may hold anything). Browser-safe.
 *
 * read: `file`; ls, glob: `list`; grep: `matches`; write / edit / apply_patch: `file_change`
 * or `file_changes`; bash: `bash`; web_fetch: `web_page`; todo_write: `todo`;
 * ask_user_question waits with `{ kind: 'question', questions }` and is answered with
 * `{ kind: 'answers', answers }`. A tool call held for approval carries `attrs.preview`.
 */

/** One file a tool wrote: its text before (null = created) and after, and the unified diff. */
export interface FileChange {
  kind: 'file_change';
  /** Relative to the working directory, '/'-separated. */
  path: string;
  /** The text before; null for a new file. */
  before: string | null;
  after: string;
  /** Unified diff from before to after. */
  diff: string;
}

/** What apply_patch returns when its patch changed several files. */
export interface FileChanges {
  kind: 'file_changes';
  changes: FileChange[];
}

/** What `read` returns: which lines (`offset` 1-based, `lines` of them) of a file of `totalLines`. */
export interface FileRead {
  kind: 'file';
  path: string;
  offset: number;
  lines: number;
  totalLines: number;
}

/** What `ls` and `glob` return: the folder (relative to the working directory) and the entries shown. */
export interface Listing {
  kind: 'list';
  path: string;
  entries: string[];
}

/** What `grep` returns: how many lines matched (the text lists at most the first 500). */
export interface GrepMatches {
  kind: 'matches';
  matches: number;
}

/** What `bash` returns. `exitCode` is null when a signal ended the process. */
export interface BashResult {
  kind: 'bash';
  command: string;
  exitCode: number | null;
  signal?: string;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
}

/** What `web_fetch` returns: `markdown` = HTML converted to markdown; `truncated` = body cut at the size cap. */
export interface WebPage {
  kind: 'web_page';
  url: string;
  status: number;
  contentType: string;
  markdown: boolean;
  truncated: boolean;
}

/** One entry of a todo list. */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** What `todo_write` returns: the whole list as it is now. */
export interface TodoList {
  kind: 'todo';
  items: TodoItem[];
}

/** One question of `ask_user_question`; `options` offers choices (free text when absent). */
export interface Question {
  id: string;
  question: string;
  options?: string[];
}

/** What an `ask_user_question` node waits with (its `inputRequest`). */
export interface QuestionRequest {
  kind: 'question';
  questions: Question[];
}

/** What `ask_user_question` returns: each question's answer by its id ('' when unanswered). */
export interface Answers {
  kind: 'answers';
  answers: Record<string, string>;
}

/** Any built-in tool's `structuredContent`. */
export type BuiltinResult = FileRead | Listing | GrepMatches | FileChange | FileChanges | BashResult | WebPage | TodoList | Answers;

/**
 * What a built-in call held for approval carries as `attrs.preview`: a file change's diff (one
 * file or several), bash's command line (`cwd` absolute), web_fetch's URL, or why the call
 * would fail.
 */
export type BuiltinPreview =
  | { kind: 'file_change'; path: string; diff: string }
  | { kind: 'file_changes'; changes: { kind: 'file_change'; path: string; diff: string }[] }
  | { kind: 'bash'; command: string; cwd?: string }
  | { kind: 'web_fetch'; url: string }
  | { kind: 'error'; message: string };

/** The previews the UI draws: a file change's diff, or bash's command line. */
export type ApprovalPreview = Extract<BuiltinPreview, { kind: 'file_change' | 'bash' }>;

/** A structured tool result the UI draws (file changes merged into one list), or null for any other value. */
export type ToolResultView = { kind: 'files'; changes: FileChange[] } | BashResult | TodoList;

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function fileChange(v: unknown): FileChange | null {
  if (!isObj(v) || v.kind !== 'file_change' || typeof v.path !== 'string') return null;
  return { kind: 'file_change', path: v.path, before: typeof v.before === 'string' ? v.before : null, after: str(v.after), diff: str(v.diff) };
}

/** The todo items of a value, dropping entries that are not `{ content, status }`. */
function todoItems(v: unknown): TodoItem[] {
  if (!Array.isArray(v)) return [];
  const statuses = ['pending', 'in_progress', 'completed'];
  return v.filter((i): i is TodoItem => isObj(i) && typeof i.content === 'string' && statuses.includes(i.status as string)).map((i) => ({ content: i.content, status: i.status }));
}

/** Reads a tool result's `structuredContent` as a file change, bash or todo result; null for anything else. */
export function toolResultView(structured: unknown): ToolResultView | null {
  if (!isObj(structured)) return null;
  switch (structured.kind) {
    case 'file_change': {
      const c = fileChange(structured);
      return c ? { kind: 'files', changes: [c] } : null;
    }
    case 'file_changes': {
      const changes = Array.isArray(structured.changes) ? structured.changes.map(fileChange).filter((c): c is FileChange => !!c) : [];
      return changes.length ? { kind: 'files', changes } : null;
    }
    case 'bash':
      return {
        kind: 'bash',
        command: str(structured.command),
        exitCode: typeof structured.exitCode === 'number' ? structured.exitCode : null,
        ...(typeof structured.signal === 'string' ? { signal: structured.signal } : {}),
        stdout: str(structured.stdout),
        stderr: str(structured.stderr),
        timedOut: structured.timedOut === true,
        truncated: structured.truncated === true,
      };
    case 'todo':
      return { kind: 'todo', items: todoItems(structured.items) };
    default:
      return null;
  }
}

/** A tool node's `attrs.preview` as one the UI draws, or null when it is none of those. */
export function approvalPreview(v: unknown): ApprovalPreview | null {
  if (!isObj(v)) return null;
  if (v.kind === 'file_change' && typeof v.path === 'string') return { kind: 'file_change', path: v.path, diff: str(v.diff) };
  if (v.kind === 'bash' && typeof v.command === 'string') return { kind: 'bash', command: v.command, ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}) };
  return null;
}

/** The questions of an ask_user_question request, or null when `v` is not `{ kind: 'question', questions }` with one well-formed question. */
export function questionsOf(v: unknown): Question[] | null {
  if (!isObj(v) || v.kind !== 'question' || !Array.isArray(v.questions)) return null;
  const qs = v.questions
    .filter((q): q is Record<string, unknown> => isObj(q) && typeof q.id === 'string' && typeof q.question === 'string')
    .map((q) => ({ id: q.id as string, question: q.question as string, ...(Array.isArray(q.options) ? { options: q.options.filter((o): o is string => typeof o === 'string') } : {}) }));
  return qs.length ? qs : null;
}
