/**
 * Past runs of the open thread (`run.list`), by turn (turns.ts): open read-only, restore messages,
 * delete; tick two turns to compare them (a turn's tool runs and continuing run with it).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Button, Checkbox, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import type { RunRecord } from '../../../../shared/protocol/host-api';
import { CompareRuns } from './CompareRuns';
import { compareRequestAtom } from '../../state/overlays';
import { shortRunId } from './compare';
import { restorePlan } from './restore';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { StatusBadge } from '../../ui/status';
import { formatMs } from '../../ui/format';
import { stopNote } from '../../../../shared/protocol/stop-reason';
import { runRefDurationMs } from '../../../../shared/protocol/duration';
import { sumUsage, usageLine } from '../../../../shared/protocol/usage';
import { AddRunAsCase } from '../eval/AddRunAsCase';
import type { RunRef } from '../../../../shared/thread/schema';
import { groupTurns, mergeTurn, turnDurationMs, turnRuns, turnStatus } from './turns';

/** Run history list; a run the turn cap stopped is marked so (RunRef `stopped`). */
export function RunHistory() {
  const app = useApp();
  const session = useSession();
  const refs = useAtomValue(app.runRefsAtom);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [confirmRestore, setConfirmRestore] = useState<string | null>(null);
  const [asCase, setAsCase] = useState<string | null>(null);
  // Runs ticked for Compare, per thread (a thread's ticks stay with it when another is opened).
  const [pickedBy, setPickedBy] = useState<Readonly<Record<string, string[]>>>({});
  const [comparing, setComparing] = useState<[RunRecord, RunRecord] | null>(null);
  /** The turn begun by run `id`, its runs' records merged; null when one cannot be read. */
  const turnRecord = useCallback(async (id: string): Promise<RunRecord | null> => {
    const turn = groupTurns(refs).find((t) => t.first.id === id);
    const recs = await Promise.all((turn ? turnRuns(turn) : [{ id }]).map((r) => app.record(r.id)));
    return recs.every((r) => r) ? mergeTurn(recs as RunRecord[]) : null;
  }, [app, refs]);
  // The palette's Compare runs: compares the two ticked runs, if two are.
  const compareRequest = useAtomValue(compareRequestAtom);
  const answered = useRef(compareRequest);
  useEffect(() => {
    if (compareRequest === answered.current) return;
    answered.current = compareRequest;
    const two = session ? (pickedBy[session.id] ?? []).filter((id) => refs.some((r) => r.id === id)) : [];
    if (two.length === 2) void Promise.all(two.map((id) => turnRecord(id))).then(([x, y]) => x && y && setComparing([x, y]));
  }, [compareRequest, session, pickedBy, refs, turnRecord]);
  if (!session) return <Text size="sm" c="dimmed" p="xs">Open a thread to see its runs.</Text>;
  const viewer = app.host.presentational;
  const threadId = session.id;
  // Only runs this list shows count (a deleted run, or refs still loading for another thread).
  const picked = (pickedBy[threadId] ?? []).filter((id) => refs.some((r) => r.id === id));
  const restore = async (runId: string) => {
    const rec = await app.record(runId);
    if (!rec) return app.fail(`Could not load run ${shortRunId(runId)}`, new Error('The run record is missing.'), 'Refresh the run history.');
    const plan = restorePlan(rec, session.thread.context.messages);
    if (!plan.ok) return app.fail(`Run ${shortRunId(runId)} cannot be restored`, new Error(plan.reason), 'Open the run to read its output instead.');
    session.edit((d) => {
      d.context.messages = plan.messages as never;
    });
  };
  const remove = async (runId: string) => {
    try {
      await app.host.call('run.delete', { threadId: session.id, runId });
      if (app.store.get(app.shownRunAtom) === runId) app.showRun(null);
      await app.refreshRuns();
    } catch (err) {
      app.fail(`Could not delete run ${shortRunId(runId)}`, err);
    }
  };
  const pick = (runId: string, on: boolean) =>
    setPickedBy((all) => {
      const p = (all[threadId] ?? []).filter((x) => x !== runId && refs.some((r) => r.id === x));
      return { ...all, [threadId]: on ? [...p, runId].slice(-2) : p };
    });
  const compare = async () => {
    const [x, y] = await Promise.all(picked.map((id) => turnRecord(id)));
    if (!x || !y) return app.fail('Could not load both runs to compare', new Error('A run record is missing.'), 'Refresh the run history and pick two runs again.');
    setComparing([x, y]);
  };
  const threadUsage = sumUsage(refs.map((r) => r.usage));
  const turns = groupTurns(refs);
  return (
    <Stack gap={4} p="xs">
      {refs.length === 0 && <Text size="sm" c="dimmed">No runs yet — Run the thread to record one.</Text>}
      {threadUsage && <Text size="xs" c="dimmed" aria-label="usage of this thread">All runs of this thread: {usageLine(threadUsage)}{threadUsage.costUsd === undefined ? ' (cost unknown: a model without a known price)' : ''}</Text>}
      {refs.length > 1 && (
        <Group gap={6}>
          <Button size="compact-xs" variant="light" disabled={picked.length !== 2} onClick={() => void compare()}>Compare runs</Button>
          <Text size="xs" c="dimmed">{picked.length === 2 ? 'Two runs picked (ticking another replaces the earlier pick).' : 'Tick two runs to compare them.'}</Text>
        </Group>
      )}
      {turns.map((t) => {
        const r = t.first;
        const status = turnStatus(t);
        // The turn's state is its newest run's: a capped run that Continue ran on is not "stopped".
        const stopped = (t.rest[t.rest.length - 1] ?? r).stopped;
        const usage = t.rest.length ? sumUsage(turnRuns(t).map((x) => x.usage)) : r.usage;
        const preview = [...t.rest].reverse().find((x) => x.preview)?.preview ?? r.preview;
        const ms = t.rest.length ? turnDurationMs(t, (x) => (x.endedAt ? runRefDurationMs(x) : undefined)) : r.endedAt ? runRefDurationMs(r) : undefined;
        return (
          <Stack key={r.id} gap={0} py={2} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            aria-label={`run ${r.mode}, ${status}${stopped ? ', stopped at the turn cap' : ''}${t.rest.length ? `, a turn of ${t.rest.length + 1} runs` : ''}`}>
            <Group gap={6} wrap="nowrap">
              <Checkbox size="xs" aria-label={`Pick run ${shortRunId(r.id)} to compare`} checked={picked.includes(r.id)} onChange={(e) => pick(r.id, e.currentTarget.checked)} />
              <StatusBadge status={status} />
              {r.scenario && <Badge size="xs" variant="light" color="grape" style={{ textTransform: 'none' }} title="The scenario whose variables this run used">{r.scenario}</Badge>}
              {stopped && <Tooltip label={stopNote(stopped.turns)}><Badge size="xs" color="orange" variant="light">turn cap ({stopped.turns})</Badge></Tooltip>}
              <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
                <Text size="xs">{t.rest.length ? [r, ...t.rest].map((x) => x.mode).join(' + ') : r.mode} · <Text span ff="monospace" size="xs">{shortRunId(r.id)}</Text> · {new Date(r.startedAt).toLocaleString()} · {ms !== undefined ? formatMs(ms) : '…'}</Text>
                {r.from && <Text size="xs" c="dimmed">re-run of {shortRunId(r.from.runId)} from call {r.from.call}</Text>}
                {preview && <Text size="xs" c="dimmed" truncate>{preview}</Text>}
                {usage && <Text size="xs" c="dimmed" aria-label={`usage of run ${shortRunId(r.id)}`}>{usageLine(usage)}</Text>}
              </Stack>
              <RunActions r={r} viewer={viewer} onOpen={() => void app.openRecord(r.id)} onRestore={() => setConfirmRestore(r.id)} onAddCase={() => setAsCase(r.id)} onDelete={() => setConfirm(r.id)} />
            </Group>
            {t.rest.map((x) => (
              <Group key={x.id} gap={6} wrap="nowrap" pl={28} aria-label={`run ${x.mode}, ${x.status}, part of the turn of run ${shortRunId(r.id)}`}>
                <StatusBadge status={x.status} />
                <Text size="xs" c="dimmed" style={{ flex: 1, minWidth: 0 }} truncate>
                  {x.mode === 'tool' ? 'tools' : 'continued'} · <Text span ff="monospace" size="xs">{shortRunId(x.id)}</Text> · {x.endedAt ? formatMs(runRefDurationMs(x)) : '…'}
                </Text>
                <RunActions r={x} viewer={viewer} onOpen={() => void app.openRecord(x.id)} onRestore={() => setConfirmRestore(x.id)} onAddCase={() => setAsCase(x.id)} onDelete={() => setConfirm(x.id)} />
              </Group>
            ))}
          </Stack>
        );
      })}
      <CompareRuns records={comparing} session={session} onClose={() => setComparing(null)} />
      <AddRunAsCase threadId={threadId} runId={asCase} onClose={() => setAsCase(null)} />
      <Modal opened={!!confirmRestore} onClose={() => setConfirmRestore(null)} title="Restore this run's conversation?" centered>
        <Text size="sm">The thread's messages become the ones this run started from plus what it added. Undo brings the current messages back.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirmRestore(null)}>Cancel</Button>
          <Button onClick={() => { const id = confirmRestore!; setConfirmRestore(null); void restore(id); }}>Restore</Button>
        </Group>
      </Modal>
      <Modal opened={!!confirm} onClose={() => setConfirm(null)} title="Delete this run?" centered>
        <Text size="sm">The run file is deleted. The thread's messages are not changed.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setConfirm(null)}>Cancel</Button>
          <Button color="red" onClick={() => { const id = confirm!; setConfirm(null); void remove(id); }}>Delete</Button>
        </Group>
      </Modal>
    </Stack>
  );
}

/** A run's buttons: Open, and outside the viewer Restore messages, Add to dataset, Delete. */
function RunActions({ r, viewer, onOpen, onRestore, onAddCase, onDelete }: { r: RunRef; viewer: boolean; onOpen(): void; onRestore(): void; onAddCase(): void; onDelete(): void }) {
  return (
    <>
      <Button size="compact-xs" variant="subtle" onClick={onOpen}>Open</Button>
      {!viewer && <Button size="compact-xs" variant="subtle" onClick={onRestore}>Restore messages</Button>}
      {!viewer && <Button size="compact-xs" variant="subtle" aria-label={`Add run ${shortRunId(r.id)} to a dataset`} onClick={onAddCase}>Add to dataset</Button>}
      {!viewer && <Button size="compact-xs" variant="subtle" color="red" onClick={onDelete}>Delete</Button>}
    </>
  );
}
