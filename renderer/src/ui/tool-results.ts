/**
 * The lines of a unified diff classified for display, and the newest todo list of a thread.
 * The built-in tools' result shapes and their readers: shared/tools/builtin-results.ts.
 */
import { toolResultView, type TodoItem } from '../../../shared/tools/builtin-results';

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
