/**
 * The shapes built-in tools put in a result's `structuredContent` (issue 20), read defensively
 * (a thread file may hold anything), and the lines of a unified diff classified for display.
 * write / edit / apply_patch: `file_change` or `file_changes`; bash: `bash`; todo_write: `todo`.
 * ask_user_question waits with `{ kind: 'question', questions }` and is answered with
 * `{ kind: 'answers', answers }`. A tool call held for approval carries `attrs.preview`.
 */

/** One file a tool wrote: its text before (null = created) and after, and the unified diff. */
export interface FileChange {
  kind: 'file_change';
  path: string;
  before: string | null;
  after: string;
  diff: string;
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

/** What a tool call waiting for approval shows: a file change's diff, or bash's command line. */
export type ApprovalPreview = { kind: 'file_change'; path: string; diff: string } | { kind: 'bash'; command: string; cwd?: string };

/** A structured tool result this UI draws, or null for any other value. */
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

/** Reads a tool result's `structuredContent` as one of the built-in tools' shapes. */
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

/** A tool node's `attrs.preview`, or null when it has none this UI draws. */
export function approvalPreview(v: unknown): ApprovalPreview | null {
  if (!isObj(v)) return null;
  if (v.kind === 'file_change' && typeof v.path === 'string') return { kind: 'file_change', path: v.path, diff: str(v.diff) };
  if (v.kind === 'bash' && typeof v.command === 'string') return { kind: 'bash', command: v.command, ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}) };
  return null;
}

/** The questions of an ask_user_question request, or null when `v` is not `{ kind: 'question', questions }`. */
export function questionsOf(v: unknown): Question[] | null {
  if (!isObj(v) || v.kind !== 'question' || !Array.isArray(v.questions)) return null;
  const qs = v.questions
    .filter((q): q is Record<string, unknown> => isObj(q) && typeof q.id === 'string' && typeof q.question === 'string')
    .map((q) => ({ id: q.id as string, question: q.question as string, ...(Array.isArray(q.options) ? { options: q.options.filter((o): o is string => typeof o === 'string') } : {}) }));
  return qs.length ? qs : null;
}

/** How one line of a unified diff shows: a file header, a hunk header, added, removed, context, or a note. */
export type DiffLineKind = 'file' | 'hunk' | 'add' | 'del' | 'context' | 'note';

/** One displayed diff line; `oldNo` / `newNo` are 1-based line numbers in the old / new file. */
export interface DiffLine {
  kind: DiffLineKind;
  text: string;
  oldNo?: number;
  newNo?: number;
}

const HUNK_RE = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Classifies the lines of a unified diff (GNU diff / git format). `@@ -a,b +c,d @@` starts a
 * hunk of b old and d new lines (1 when omitted) and sets the line numbers; inside it `+`, `-`
 * and ` ` are added, removed and context lines, counted down, so a removed line reading
 * `--- x` stays a removed line. Outside a hunk `---` / `+++` / `diff` / `Index:` are file
 * headers; `\ No newline at end of file` and anything else is a note. Never throws; a
 * trailing newline adds no line.
 */
export function diffLines(diff: string): DiffLine[] {
  const lines = diff.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const out: DiffLine[] = [];
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const text of lines) {
    const hunk = HUNK_RE.exec(text);
    if (oldLeft > 0 || newLeft > 0) {
      const c = text[0];
      if (c === '+' && newLeft > 0) {
        out.push({ kind: 'add', text, newNo: newNo++ });
        newLeft--;
        continue;
      }
      if (c === '-' && oldLeft > 0) {
        out.push({ kind: 'del', text, oldNo: oldNo++ });
        oldLeft--;
        continue;
      }
      if ((c === ' ' || text === '') && oldLeft > 0 && newLeft > 0) {
        out.push({ kind: 'context', text, oldNo: oldNo++, newNo: newNo++ });
        oldLeft--;
        newLeft--;
        continue;
      }
    }
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      out.push({ kind: 'hunk', text });
    } else if (/^(--- |\+\+\+ |diff |Index: |===)/.test(text)) {
      oldLeft = newLeft = 0;
      out.push({ kind: 'file', text });
    } else out.push({ kind: 'note', text });
  }
  return out;
}

/** Lines added and removed by a diff. */
export function diffStat(lines: DiffLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of lines) {
    if (l.kind === 'add') added++;
    else if (l.kind === 'del') removed++;
  }
  return { added, removed };
}

/**
 * The newest todo list in a thread's messages: the last tool result shaped `{ kind: 'todo' }`
 * (todo_write returns the whole list each time), or null when no call wrote one.
 */
export function latestTodo(messages: readonly { role: string; toolCalls?: readonly { output?: { structuredContent?: unknown } }[] }[]): TodoItem[] | null {
  for (let m = messages.length - 1; m >= 0; m--) {
    const calls = messages[m].toolCalls ?? [];
    for (let c = calls.length - 1; c >= 0; c--) {
      const view = toolResultView(calls[c].output?.structuredContent);
      if (view?.kind === 'todo') return view.items;
    }
  }
  return null;
}
