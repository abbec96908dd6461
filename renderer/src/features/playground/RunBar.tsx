/**
 * Run / Continue / Stop / Run all tools, Auto-run tools with Max turns and destructive tools, Review
 * sampling, Undo / Redo; a note when the newest run stopped at the turn cap. One row that never
 * wraps (docs/ui.md#toolbars): Stop shows only while a run runs, Run all tools only while calls
 * wait, Undo and Redo are icon buttons named by aria-label.
 */
import { memo, useDeferredValue, useId } from 'react';
import { useAtomValue } from 'jotai';
import { ActionIcon, Button, Checkbox, Group, NumberInput, Switch, Text, Tooltip } from '@mantine/core';
import type { Thread } from '../../../../shared/thread/schema';
import { DEFAULT_MAX_TURNS } from '../../../../shared/thread/defaults';
import { useApp } from '../../state/context';
import { useSession, useThreadMeta } from '../../state/hooks';
import { modKey } from '../../ui/format';
import { BarTooltip } from '../../ui/BarTooltip';
import { runOffer } from './run-state';
import { useBadData, repeatedIds } from '../../state/repeated-ids';
import { stopNote } from '../../../../shared/protocol/stop-reason';

/** The action bar of the playground. */
export function RunBar({ thread }: { thread: Thread }) {
  const app = useApp();
  const session = useSession()!;
  const meta = useThreadMeta()!;
  const running = !!meta.runningRunId;
  // The thread's settings are read-only too while it repeats ids (Playground, DuplicateIdsNotice).
  // (useBadData: a large image's check comes a task after the first render, and re-renders the bar if it fails.)
  const bad = useBadData(thread).length > 0;
  const frozen = running || repeatedIds(thread).length > 0 || bad;
  const viewer = app.host.presentational;
  const invalidFields = useAtomValue(app.invalidFieldsAtom);
  const invalid = invalidFields.size > 0;
  const offer = invalid ? { ...runOffer(thread), canPrimary: false, reason: `Not valid JSON yet: ${[...invalidFields].map((k) => fieldName(k, thread)).join(', ')}. Fix it first.` } : runOffer(thread);
  const auto = !!thread.settings?.autoRunTools;
  const mod = modKey();
  // The settings follow a run's start or end a moment later, as a deferred render in slices:
  // the Run and Stop buttons change at once, and edits are refused meanwhile whatever the
  // switches show (ThreadSession.edit).
  const frozenLater = useDeferredValue(frozen);
  // The newest run of this thread (run history's order), when the turn cap stopped it.
  const stopped = useAtomValue(app.runRefsAtom)[0]?.stopped;
  if (viewer)
    return (
      <Text size="xs" c="dimmed">
        Read-only viewer — open this thread in Stepwise to edit and run it.
      </Text>
    );
  return (
    <Group gap={6} wrap="nowrap" className="sw-runbar" role="toolbar" aria-label="Run controls">
      <BarTooltip label={offer.reason ?? `${offer.primary} (${mod}+Enter)`}>
        <Button size="xs" disabled={running || !offer.canPrimary} aria-keyshortcuts="Control+Enter Meta+Enter"
          onClick={() => void app.startRun(auto ? 'react' : 'step', auto ? { maxTurns: thread.settings?.maxTurns } : {})}>
          {offer.primary}
        </Button>
      </BarTooltip>
      {/* Only while there is something to stop or to run: an idle bar is not a row of grey slabs. */}
      {running && (
        <Button size="xs" color="red" variant="light" onClick={() => void app.cancelRun()} aria-keyshortcuts="Escape">
          Stop
        </Button>
      )}
      {!running && offer.pending.length > 0 && (
        <BarTooltip label={`Execute every pending tool call in parallel (${mod}+Shift+Enter)`}>
          <Button size="xs" variant="default" disabled={invalid} aria-keyshortcuts="Control+Shift+Enter Meta+Shift+Enter" aria-label="Run all tools"
            onClick={() => void app.startRun('tool', { toolCallIds: offer.pending.map((c) => c.id) })}>
            Run all tools ({offer.pending.length})
          </Button>
        </BarTooltip>
      )}
      <RunSettings auto={auto} maxTurns={thread.settings?.maxTurns ?? DEFAULT_MAX_TURNS} allowDestructive={!!thread.settings?.allowDestructive}
        reviewSampling={!!thread.settings?.reviewSampling} hasMcp={thread.context.tools.some((t) => t.type === 'mcp')} frozen={frozenLater} />
      {!running && stopped && <Text size="xs" c="orange" role="status">{stopNote(stopped.turns)}</Text>}
      <div style={{ flex: 1 }} />
      <BarTooltip label={`Undo (${mod}+Z)`}>
        <ActionIcon size="md" variant="subtle" color="gray" aria-label="Undo" disabled={running || !meta.canUndo} onClick={() => session.undo()} aria-keyshortcuts="Control+Z Meta+Z">
          <span aria-hidden>↶</span>
        </ActionIcon>
      </BarTooltip>
      <BarTooltip label={`Redo (${mod}+Shift+Z)`}>
        <ActionIcon size="md" variant="subtle" color="gray" aria-label="Redo" disabled={running || !meta.canRedo} onClick={() => session.redo()} aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z">
          <span aria-hidden>↷</span>
        </ActionIcon>
      </BarTooltip>
    </Group>
  );
}

/** What {@link RunSettings} shows. */
interface RunSettingsProps {
  auto: boolean;
  maxTurns: number;
  allowDestructive: boolean;
  reviewSampling: boolean;
  /** The thread has an MCP tool (Review sampling is offered). */
  hasMcp: boolean;
  frozen: boolean;
}

/**
 * Auto-run tools with Max turns and destructive tools, and Review sampling. Memoised on
 * primitive props: a run starting renders the bar's buttons, and these only when `frozen`
 * follows (deferred, in RunBar).
 */
const RunSettings = memo(function RunSettings({ auto, maxTurns, allowDestructive, reviewSampling, hasMcp, frozen }: RunSettingsProps) {
  const session = useSession()!;
  const turnsId = useId();
  return (
    <>
      <Switch size="xs" label="Auto-run tools" checked={auto} disabled={frozen}
        onChange={(e) => { const on = e.currentTarget.checked; session.edit((d) => { d.settings = { ...(d.settings ?? {}), autoRunTools: on }; }); }} />
      {auto && (
        <Tooltip label="Auto-run stops after this many model calls; Continue runs on from there" position="bottom">
          <Group gap={4} wrap="nowrap">
            <Text component="label" htmlFor={turnsId} size="xs">Max turns</Text>
            <NumberInput id={turnsId} size="xs" w={70} min={1} max={100} allowDecimal={false} value={maxTurns} disabled={frozen}
              onChange={(v) => typeof v === 'number' && v >= 1 && session.edit((d) => { d.settings = { ...(d.settings ?? {}), maxTurns: v }; }, 'settings.maxTurns')} />
          </Group>
        </Tooltip>
      )}
      {auto && (
        <Tooltip label="Let Auto-run tools call MCP tools marked destructive without stopping for you" position="bottom">
          <Checkbox size="xs" label="Allow destructive tools" checked={allowDestructive} disabled={frozen}
            onChange={(e) => { const on = e.currentTarget.checked; session.edit((d) => { d.settings = { ...(d.settings ?? {}), allowDestructive: on }; }); }} />
        </Tooltip>
      )}
      {hasMcp && (
        <Tooltip label="Stop at each MCP sampling request so you can read, edit, approve or reject it before the model runs" position="bottom">
          <Checkbox size="xs" label="Review sampling" checked={reviewSampling} disabled={frozen}
            onChange={(e) => { const on = e.currentTarget.checked; session.edit((d) => { d.settings = { ...(d.settings ?? {}), reviewSampling: on }; }); }} />
        </Tooltip>
      )}
    </>
  );
});

/** A field's name as the playground shows it, from its invalid-field key (see JsonField `invalidKey`). */
function fieldName(key: string, thread: Thread): string {
  if (key === 'model.script') return 'the script';
  const tool = /^tool\.(\d+)\.schema$/.exec(key);
  if (tool) return `the JSON Schema of ${thread.context.tools[Number(tool[1])]?.name ?? 'a tool'}`;
  if (key.startsWith('args.')) {
    const id = key.slice(5);
    for (const m of thread.context.messages) {
      const call = m.role === 'assistant' ? m.toolCalls?.find((c) => c.id === id) : undefined;
      if (call) return `the arguments of ${call.name}`;
    }
  }
  return key;
}
