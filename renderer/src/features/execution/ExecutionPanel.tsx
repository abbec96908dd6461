/** Right panel: the shown run's execution tree over the detail of the selected node and the run history. */
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Badge, Button, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { Group as PanelGroup, Panel, Separator, useDefaultLayout } from 'react-resizable-panels';
import { compareRequestAtom } from '../../state/overlays';
import { useApp } from '../../state/context';
import { useSession, useThread, useThreadMetaField } from '../../state/hooks';
import { latestTodo } from '../../ui/tool-results';
import { TodoView } from '../../ui/ToolResults';
import { StatusBadge } from '../../ui/status';
import { ExecutionTree } from './ExecutionTree';
import { DetailPanel } from '../detail/DetailPanel';
import { RunHistory } from '../runs/RunHistory';
import { shortRunId } from '../runs/compare';

/** The execution column. */
export function ExecutionPanel() {
  const app = useApp();
  const session = useSession();
  const runs = useAtomValue(app.stream.runsAtom);
  // The run shown, deferred: switching runs (a run starting) mounts its tree in a render of its
  // own, in slices, even when this panel renders at once for something else (the run list).
  const shown = useDeferredValue(useAtomValue(app.shownRunAtom));
  const layout = useDefaultLayout({ id: 'stepwise-execution', storage: localStorage });
  const mine = runs.filter((r) => r.runId === shown || (session && r.threadId === session.id));
  const info = runs.find((r) => r.runId === shown);
  const selected = useAtomValue(app.selectedAtom);
  const undoneRuns = useThreadMetaField('undoneRuns');
  const canRedo = useThreadMetaField('canRedo');
  const undone = !!shown && !!undoneRuns?.includes(shown);
  const [tab, setTab] = useState<string>('detail');
  const thread = useThread();
  // The agent's newest todo list (todo_write returns the whole list each time).
  const todo = useMemo(() => (thread ? latestTodo(thread.context.messages) : null), [thread]);
  // A run the ReAct turn cap stopped says so next to its status (its ref records the cap).
  const capped = (runId: string | null | undefined) => (runId ? thread?.runRefs.find((r) => r.id === runId)?.stopped : undefined);
  const shownCap = capped(shown);
  // The palette's Compare runs shows Run history (where the runs are ticked).
  const compareRequest = useAtomValue(compareRequestAtom);
  useEffect(() => {
    if (compareRequest) setTab('history');
  }, [compareRequest]);
  // Selecting a row shows its detail, even when Run history was the open tab.
  useEffect(() => {
    if (selected) setTab('detail');
  }, [selected]);
  return (
    <PanelGroup orientation="vertical" defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged} style={{ height: '100%' }}>
      <Panel id="tree" defaultSize="60%" minSize="15%">
        <Stack gap={4} h="100%" p="xs" style={{ minHeight: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} size="sm">Execution</Text>
            {mine.length > 0 && (
              <Select size="xs" aria-label="Shown run" style={{ flex: 1, minWidth: 0 }} value={shown} allowDeselect={false}
                data={mine.map((r) => ({ value: r.runId, label: `${r.mode ?? 'run'} · ${r.status}${capped(r.runId) ? ' · stopped at the turn cap' : ''}${r.stored ? ' · stored' : ''} · ${shortRunId(r.runId)}` }))}
                onChange={(v) => app.showRun(v)} />
            )}
            {info && <StatusBadge status={info.status} />}
            {info && shownCap && <Badge size="xs" color="orange" variant="light" title={`Stopped after ${shownCap.turns} turn${shownCap.turns === 1 ? '' : 's'} — the cap set in Max turns; Continue runs on`}>stopped at the turn cap</Badge>}
            {info?.stored && <Badge size="xs" variant="outline">read-only</Badge>}
            {shown && info && info.status !== 'running' && (
              <Button size="compact-xs" variant="subtle" onClick={() => { app.store.set(app.selectedAtom, null); app.showRun(null); }}>Clear</Button>
            )}
          </Group>
          {undone && (
            <Text size="xs" c="dimmed" role="note">
              Undone: this run's result is no longer in the thread. The run itself stays here and in Run history
              {canRedo ? '; Redo brings its result back.' : '.'}
            </Text>
          )}
          {todo && (
            <details open aria-label="Agent's todo list">
              <summary><Text span size="xs" fw={600}>Todo list</Text></summary>
              <TodoView items={todo} label="Agent's todo list" />
            </details>
          )}
          {shown ? <ExecutionTree key={shown} runId={shown} /> : (
            <Text size="sm" c="dimmed">No run shown — Run the thread, or open a past run from Run history.</Text>
          )}
        </Stack>
      </Panel>
      <Separator className="sw-sep-h" />
      <Panel id="detail" defaultSize="40%" minSize="10%">
        <Tabs value={tab} onChange={(v) => setTab(v ?? 'detail')} h="100%" style={{ display: 'flex', flexDirection: 'column' }} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="detail">Detail</Tabs.Tab>
            <Tabs.Tab value="history">Run history</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="detail" style={{ flex: 1, minHeight: 0, overflow: 'auto' }}><DetailPanel /></Tabs.Panel>
          <Tabs.Panel value="history" style={{ flex: 1, minHeight: 0, overflow: 'auto' }}><RunHistory /></Tabs.Panel>
        </Tabs>
      </Panel>
    </PanelGroup>
  );
}
