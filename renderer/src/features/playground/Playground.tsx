/** Middle panel: the open thread — model, tools, system prompt, messages, run actions. */
import { memo, useCallback, useDeferredValue, useEffect, useId, useMemo, useRef, useState, type RefObject } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { Badge, Button, Group, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { ThreadTitle } from './ThreadTitle';
import { useApp } from '../../state/context';
import { useSession, useThread, useThreadMeta } from '../../state/hooks';
import { newId } from '../../../../shared/thread/ids';
import type { ThreadSession } from '../../state/thread-session';
import type { Thread } from '../../../../shared/thread/schema';
import { VariablesField } from './VariablesField';
import { StartPanel } from './StartPanel';
import { PromptEditor, TemplateVariablesContext, warmEditorCode } from '../../ui/editors';
import { TemplatePreview } from './TemplatePreview';
import { templateVariables } from './template-vars';
import { ErrorNotice } from '../../ui/ErrorNotice';
import { ModelSection } from './ModelSection';
import { ToolsSection } from './ToolsSection';
import { MessageList, SCROLLER_ATTRIBUTE } from './MessageList';
import { FindBar } from './FindBar';
import type { FindState } from './find-context';
import { WAKE_PRIORITY, WakeQueue } from '../../ui/wake-queue';
import { EditorRegionContext, type EditorRegion } from '../../ui/editor-mount';
import { RunBar } from './RunBar';
import { useSectionsShown } from './sections-shown';
import { useBadData, repeatedIds } from '../../state/repeated-ids';
import { DuplicateIdsNotice } from './DuplicateIdsNotice';
import { FileGoneNotice } from '../workspace/FileGoneNotice';
import { BranchLinks } from './BranchLinks';
import { PlaygroundBody } from './PlaygroundBody';
import { McpBrowser } from '../mcp/McpBrowser';
import { jumpTo, messageJumpAtom } from '../../state/message-jump';
import { playgroundLayoutAtom } from '../../state/layout';
import { settingsFoldedAtom } from '../../state/settings-fold';
import { SettingsSummary } from './SettingsSummary';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack gap={4} component="section" aria-label={title}>
      <Text size="xs" fw={700} tt="uppercase" c="dimmed">{title}</Text>
      {children}
    </Stack>
  );
}

type ThreadContentProps = {
  session: ThreadSession;
  thread: Thread;
  version: number;
  readOnly: boolean;
  scrollRef: RefObject<HTMLDivElement | null>;
  find: FindState;
  queue: WakeQueue;
  /** Opens the MCP resources and prompts browser. */
  onBrowse: () => void;
  /** The settings are folded into their summary (SettingsSummary): not mounted. */
  folded: boolean;
  /** The id of the settings' region (the summary's aria-controls). */
  settingsId: string;
};

/**
 * The scrolled part of the playground ({@link ThreadBody}). A run starting or ending turns the
 * whole thread read-only and back: the body renders that in the background (a deferred value,
 * which React renders in slices, yielding to the page), not inside the one task that takes the
 * run's start or end. The header says it at once, and edits are refused from then on whatever
 * the editors show (ThreadSession.edit). Keyed by the thread: a thread opened shows as it is.
 */
const ThreadContent = memo(function ThreadContent(props: ThreadContentProps) {
  const readOnly = useDeferredValue(props.readOnly);
  return <ThreadBody {...props} readOnly={readOnly} />;
});

/**
 * The scrolled part of the playground: model, tools, system prompt, messages, mounted in turn
 * ({@link useSectionsShown}), in the chosen layout (PlaygroundBody: stacked or side by side).
 * Memoised: the header's state (running badge, a mounted Mantine part settling) renders the
 * playground again without rendering all of this again.
 */
const ThreadBody = memo(function ThreadBody({ session, thread, version, readOnly, scrollRef, find, queue, onBrowse, folded, settingsId }: ThreadContentProps) {
  const app = useApp();
  const shown = useSectionsShown(queue, 4);
  /** Add an empty message at the end; the list scrolls to it and its text editor takes the focus. */
  const addMessage = (role: 'user' | 'assistant') => {
    const id = newId('msg');
    if (session.edit((d) => void d.context.messages.push({ id, role, content: [{ type: 'text', text: '' }] }))) app.store.set(messageJumpAtom, jumpTo(id, 'text'));
  };
  return (
    <PlaygroundBody
      settingsId={settingsId}
      messagesScrollRef={scrollRef}
      messagesScrollProps={{ [SCROLLER_ATTRIBUTE]: '' } as React.ComponentProps<'div'>}
      settings={folded ? null : <>
        {shown > 0 && <Section title="Model"><ModelSection thread={thread} readOnly={readOnly} /></Section>}
        {shown > 1 && <Section title="Tools"><ToolsSection thread={thread} readOnly={readOnly} /></Section>}
        {shown > 2 && <Section title="System prompt">
          {/* Bound to the document's Y.Text (y-binding.ts); `value` is what shows until the editor is made. */}
          <PromptEditor label="System prompt" value={thread.context.systemPrompt} bound={session.boundText('systemPrompt')} readOnly={readOnly} placeholder="You are…" minHeight={48} />
          <TemplatePreview threadId={thread.id} place="systemPrompt" label="system prompt" source={thread.context.systemPrompt} version={version}
            literal={thread.settings?.literal ? 'the thread is literal' : undefined} />
          <VariablesField thread={thread} readOnly={readOnly} />
        </Section>}
      </>}
      messages={shown > 3 && <Section title={`Messages (${thread.context.messages.length})`}>
        {thread.context.messages.length === 0 && <Text size="sm" c="dimmed">No messages — add a user message, then Run.</Text>}
        <MessageList key={session.id} thread={thread} readOnly={readOnly} scrollRef={scrollRef} find={find} queue={queue} />
        {!readOnly && (
          <Group gap={6}>
            <Button size="compact-xs" variant="light" onClick={() => addMessage('user')}>Add user message</Button>
            <Button size="compact-xs" variant="subtle" onClick={() => addMessage('assistant')}>Add assistant message</Button>
            <Button size="compact-xs" variant="subtle" onClick={onBrowse}>MCP resources and prompts</Button>
          </Group>
        )}
      </Section>}
    />
  );
});

/** How long after a run's end the playground waits for its result to scroll to it, ms. */
const RESULT_WAIT_MS = 2000;

/** The thread playground. */
export function Playground() {
  const app = useApp();
  const session = useSession();
  const thread = useThread();
  const meta = useThreadMeta();
  const scrollRef = useRef<HTMLDivElement>(null);
  const findRef = useRef<HTMLInputElement>(null);
  const [find, setFindState] = useState<FindState>({ query: '', current: null });
  // The find box reports on mount too: an unchanged state does not render the playground again.
  const setFind = useCallback((next: FindState) => setFindState((prev) => (prev.query === next.query && prev.current === next.current ? prev : next)), []);
  // Every editor of the playground is made in turn, one per task: opening a thread draws its
  // text at once and never blocks the page while a dozen editors are made.
  const [queue] = useState(() => new WakeQueue());
  const region = useMemo<EditorRegion>(() => ({ active: true, schedule: (key, make) => queue.add(key, make, WAKE_PRIORITY.editor) }), [queue]);
  const [browsing, setBrowsing] = useState(false);
  const layout = useAtomValue(playgroundLayoutAtom);
  const [foldedBy, setFoldedBy] = useAtom(settingsFoldedAtom);
  const threadId = thread?.id;
  const runningNow = !!meta?.runningRunId;
  // A run starting folds the settings: the conversation and the run are what the pane shows.
  useEffect(() => {
    if (runningNow && threadId) setFoldedBy((all) => (all[threadId] ? all : { ...all, [threadId]: true }));
  }, [runningNow, threadId, setFoldedBy]);
  const settingsId = useId();
  // A run that added messages shows the first one it added at the top of the list (the reply and
  // its tool calls, or the final answer), not wherever the list was.
  const messages = thread?.context.messages;
  const lastId = messages?.[messages.length - 1]?.id;
  const lastBeforeRun = useRef<{ threadId: string; lastId: string | undefined; count: number; running: boolean; endedAt?: number } | null>(null);
  useEffect(() => {
    if (!threadId || !messages) return;
    const before = lastBeforeRun.current;
    if (runningNow) {
      // The run's start: what the thread ended with then.
      if (!before?.running || before.threadId !== threadId) lastBeforeRun.current = { threadId, lastId, count: messages.length, running: true };
      return;
    }
    if (!before || before.threadId !== threadId) return;
    // Ended; its result may come a patch after the end: waited for a moment (not for a message
    // typed later, which takes its own jump).
    const endedAt = before.endedAt ?? Date.now();
    lastBeforeRun.current = { ...before, running: false, endedAt };
    if (before.lastId === lastId) return;
    if (Date.now() - endedAt > RESULT_WAIT_MS) return void (lastBeforeRun.current = null);
    lastBeforeRun.current = null;
    const first = messages[Math.min(before.count, messages.length - 1)];
    if (first) app.store.set(messageJumpAtom, jumpTo(first.id, false, true));
  }, [runningNow, threadId, lastId, messages, app]);
  const browse = useCallback(() => setBrowsing(true), []);
  // The editors' code runs once, first in the queue (at start, before a thread is open): the
  // first editors of a thread then cost no more than the next ones.
  const scheme = useComputedColorScheme('light');
  useEffect(() => warmEditorCode(scheme, (key, step) => queue.add(key, step, WAKE_PRIORITY.warmUp)), [scheme, queue]);
  // A new list only when what it is made of changes (Immer keeps untouched parts the same
  // objects): a new one renders every prompt editor again (a keystroke in a message, a run starting).
  const ctx = thread?.context;
  const variables = useMemo(
    () => (thread ? templateVariables(thread) : []),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- exactly what templateVariables reads
    [ctx?.variables, ctx?.variableTypes, ctx?.scenario, ctx?.scenarios, thread?.title, thread?.settings],
  );
  // Image, audio or document data that is not base64: read-only too, each place named (data-check.ts).
  const bad = useBadData(thread);
  if (!session || !thread || !meta) return <StartPanel />;
  const editable = !app.host.presentational && !meta.runningRunId;
  // Repeated message or tool call ids: read-only until they get new ids (DuplicateIdsNotice).
  const repeats = repeatedIds(thread).length > 0;
  // Image, audio or document data that is not base64: read-only too, each place named.
  const readOnly = !editable || repeats || bad.length > 0;
  // Side by side the messages have their own panel: the settings stay beside them.
  const folded = layout !== 'side-by-side' && !!foldedBy[thread.id];
  return (
    <Stack gap={0} h="100%" style={{ minHeight: 0 }} onKeyDown={(e) => {
      // Mod+F outside an editor: find in all messages (the browser's find sees only the mounted ones).
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f' && !(e.target as Element).closest('.cm-editor')) {
        e.preventDefault();
        findRef.current?.focus();
      }
    }}>
      <Stack gap={6} p="xs" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
        <Group gap="xs" wrap="nowrap">
          <ThreadTitle title={thread.title} readOnly={!editable} />
          {meta.runningRunId && <Badge color="blue" variant="light">running — read-only</Badge>}
          {repeats && !meta.runningRunId && <Badge color="orange" variant="light">repeated ids — read-only</Badge>}
          {bad.length > 0 && !meta.runningRunId && <Badge color="orange" variant="light">invalid data — read-only</Badge>}
          {/* Outside the scroll area: always at hand, and focusing it never scrolls the list away. */}
          <FindBar key={session.id} ref={findRef} messages={thread.context.messages} onChange={setFind} />
        </Group>
        <BranchLinks thread={thread} />
        <RunBar thread={thread} />
        {meta.error && <ErrorNotice title="Edit problem" message={meta.error.message} details={meta.error.details} />}
        <DuplicateIdsNotice thread={thread} canEdit={editable} />
        {bad.length > 0 && <ErrorNotice title="This thread holds data that is not valid base64: it is read-only" message={bad.map((p) => `${p.pointer}: ${p.message}`).join('\n')} />}
        <FileGoneNotice />
        {layout !== 'side-by-side' && <SettingsSummary thread={thread} folded={folded} controls={settingsId} onToggle={() => setFoldedBy((all) => ({ ...all, [thread.id]: !folded }))} />}
      </Stack>
      <EditorRegionContext.Provider value={region}>
        <TemplateVariablesContext.Provider value={variables}>
          <ThreadContent key={session.id} session={session} thread={thread} version={meta.version} readOnly={readOnly} scrollRef={scrollRef} find={find} queue={queue} onBrowse={browse} folded={folded} settingsId={settingsId} />
        </TemplateVariablesContext.Provider>
      </EditorRegionContext.Provider>
      {browsing && <McpBrowser readOnly={readOnly} onClose={() => setBrowsing(false)} />}
    </Stack>
  );
}
