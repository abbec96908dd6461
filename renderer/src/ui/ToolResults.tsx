/**
 * Views of built-in tool results (shapes in tool-results.ts): a unified diff with added and
 * removed lines coloured, bash's command, exit code, stdout and stderr as a terminal, a todo
 * list with its items ticked by status, and what a held tool call would do (approval preview).
 * Presentational: no state, no host.
 */
import { Badge, Checkbox, Group, Stack, Text } from '@mantine/core';
import { approvalPreview, toolResultView, type BashResult, type FileChange, type TodoItem } from '../../../shared/tools/builtin-results';
import { diffLines, diffStat } from './tool-results';
import './tool-results.css';

/** A unified diff, one row per line, coloured by kind; `maxLines` cuts a long one with a note. */
export function DiffView({ diff, label, maxLines }: { diff: string; label: string; maxLines?: number }) {
  const lines = diffLines(diff);
  const shown = maxLines !== undefined ? lines.slice(0, maxLines) : lines;
  return (
    <div className="sw-diff" role="figure" aria-label={label}>
      {shown.map((l, i) => (
        <div key={i} className={`sw-diff-line sw-diff-${l.kind}`} data-kind={l.kind}>
          <span className="sw-diff-no" aria-hidden>{l.oldNo ?? ''}</span>
          <span className="sw-diff-no" aria-hidden>{l.newNo ?? ''}</span>
          <span className="sw-diff-text">{l.text}</span>
        </div>
      ))}
      {shown.length < lines.length && <div className="sw-diff-line sw-diff-note">… {lines.length - shown.length} more lines (the Detail panel shows all)</div>}
      {lines.length === 0 && <div className="sw-diff-line sw-diff-note">no changes</div>}
    </div>
  );
}

/** One changed file: its path, created / changed, +added −removed, and its diff. */
export function FileChangeView({ change, maxLines }: { change: FileChange; maxLines?: number }) {
  const stat = diffStat(diffLines(change.diff));
  return (
    <Stack gap={2}>
      <Group gap={6}>
        <Text size="xs" ff="monospace" fw={600}>{change.path}</Text>
        <Badge size="xs" variant="light" color={change.before === null ? 'green' : 'blue'}>{change.before === null ? 'created' : 'changed'}</Badge>
        <Text size="xs" c="green">+{stat.added}</Text>
        <Text size="xs" c="red">−{stat.removed}</Text>
      </Group>
      <DiffView diff={change.diff} label={`Diff of ${change.path}`} maxLines={maxLines} />
    </Stack>
  );
}

/** bash's result as a terminal: `$ command`, stdout, stderr in red, and the exit status. */
export function TerminalView({ result, maxChars }: { result: BashResult; maxChars?: number }) {
  const cut = (s: string) => (maxChars !== undefined && s.length > maxChars ? `${s.slice(0, maxChars)}…` : s);
  const exit = result.exitCode !== null ? `exit ${result.exitCode}` : result.signal ? `killed by ${result.signal}` : 'no exit code';
  return (
    <Stack gap={2}>
      <Group gap={6}>
        <Badge size="xs" variant="light" color={result.exitCode === 0 ? 'teal' : 'red'} aria-label={`exit status: ${exit}`}>{exit}</Badge>
        {result.timedOut && <Badge size="xs" variant="light" color="orange">timed out</Badge>}
        {result.truncated && <Badge size="xs" variant="light" color="gray">output truncated</Badge>}
      </Group>
      <pre className="sw-term" role="log" aria-label={`Terminal: ${result.command}`}>
        <span className="sw-term-cmd">$ {result.command}</span>
        {'\n'}
        {result.stdout && <span aria-label="stdout">{cut(result.stdout)}</span>}
        {result.stderr && <span className="sw-term-err" aria-label="stderr">{cut(result.stderr)}</span>}
      </pre>
    </Stack>
  );
}

const TODO_WORD: Record<TodoItem['status'], string> = { pending: 'pending', in_progress: 'in progress', completed: 'completed' };

/** A todo list: a checkbox per item (ticked when completed, half-ticked in progress) and its status word. */
export function TodoView({ items, label = 'Todo list' }: { items: TodoItem[]; label?: string }) {
  if (!items.length) return <Text size="xs" c="dimmed">The todo list is empty.</Text>;
  const done = items.filter((i) => i.status === 'completed').length;
  return (
    <Stack gap={2} role="list" aria-label={label}>
      <Text size="xs" c="dimmed">{done} of {items.length} done</Text>
      {items.map((item, i) => (
        <Group key={i} gap={6} wrap="nowrap" role="listitem" aria-label={`${item.content}, ${TODO_WORD[item.status]}`}>
          <Checkbox size="xs" readOnly tabIndex={-1} aria-hidden checked={item.status === 'completed'} indeterminate={item.status === 'in_progress'} />
          <Text size="xs" td={item.status === 'completed' ? 'line-through' : undefined} fw={item.status === 'in_progress' ? 600 : undefined} style={{ flex: 1 }}>{item.content}</Text>
          <Text size="xs" c="dimmed">{TODO_WORD[item.status]}</Text>
        </Group>
      ))}
    </Stack>
  );
}

/**
 * A built-in tool's structured result drawn as what it is (diff, terminal, todo list), or
 * null when `structured` is none of those. `compact` cuts long output (execution-tree rows).
 */
export function ToolResultBody({ structured, compact }: { structured: unknown; compact?: boolean }) {
  const view = toolResultView(structured);
  if (!view) return null;
  if (view.kind === 'files') return <Stack gap={6}>{view.changes.map((c, i) => <FileChangeView key={i} change={c} maxLines={compact ? 40 : undefined} />)}</Stack>;
  if (view.kind === 'bash') return <TerminalView result={view} maxChars={compact ? 2000 : undefined} />;
  return <TodoView items={view.items} />;
}

/** What a tool call held for approval would do (`attrs.preview`): the diff of a file change, or bash's command line. */
export function ApprovalPreviewView({ preview }: { preview: unknown }) {
  const p = approvalPreview(preview);
  if (!p) return null;
  if (p.kind === 'file_change') {
    return (
      <Stack gap={2} aria-label="Approval preview">
        <Text size="xs" fw={600}>Approve this change to <Text span ff="monospace" size="xs">{p.path}</Text>?</Text>
        <DiffView diff={p.diff} label={`Proposed diff of ${p.path}`} maxLines={60} />
      </Stack>
    );
  }
  return (
    <Stack gap={2} aria-label="Approval preview">
      <Text size="xs" fw={600}>Approve running this command{p.cwd ? <> in <Text span ff="monospace" size="xs">{p.cwd}</Text></> : null}?</Text>
      <pre className="sw-term" aria-label="Proposed command"><span className="sw-term-cmd">$ {p.command}</span></pre>
    </Stack>
  );
}
