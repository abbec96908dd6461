/**
 * One row of the virtualised message list. A row first draws a light placeholder of the card's
 * expected height (its role and first line); the card replaces it in turn, one card per task,
 * visible rows first (WakeQueue). The card's editors are then made while the row is in view or
 * once anything in it has had the focus, also in turn, and show static text until then
 * (ui/editor-mount.tsx).
 */
import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import type { Message } from '../../../../shared/thread/messages';
import type { Thread } from '../../../../shared/thread/schema';
import { EditorRegionContext, type EditorRegion } from '../../ui/editor-mount';
import { MessageCard } from './MessageCard';
import { WAKE_PRIORITY, type WakeQueue } from '../../ui/wake-queue';

export interface MessageRowProps {
  thread: Thread;
  index: number;
  readOnly: boolean;
  /** The row's key in the list (the message id, or id#index for a repeated id). */
  rowKey: string;
  /** The row is in the viewport (not just in the overscan). */
  inView: boolean;
  queue: WakeQueue;
  /** Outline the row: the person just jumped to it. */
  jumpTarget: boolean;
  /** Height of the placeholder (the row's measured or estimated size), px; read on the first render only. */
  placeholderHeight: number;
}

/** What a row shows before its card: the card's frame, role and first line, at the card's expected height. */
function Placeholder({ m, height }: { m: Message; height: number }) {
  const text = m.content.find((p) => p.type === 'text') as { text: string } | undefined;
  const first = text?.text.split('\n', 1)[0] ?? '';
  return (
    <div className="sw-row-placeholder" aria-hidden="true" style={{ height, borderLeftColor: `var(--mantine-color-${m.role === 'user' ? 'blue' : 'grape'}-5)` }}>
      <div className="sw-row-placeholder-role">{m.role}</div>
      <div className="sw-row-placeholder-text">{first.slice(0, 300)}</div>
    </div>
  );
}

/** The row's content; positioned and measured by MessageList. */
export const MessageRow = memo(
  function MessageRow({ thread, index, readOnly, rowKey, inView, queue, jumpTarget, placeholderHeight }: MessageRowProps) {
    const [shown, setShown] = useState(false);
    const [height] = useState(placeholderHeight);
    const [focused, setFocused] = useState(false);
    useEffect(() => {
      if (shown) return;
      // A transition: React renders the card in slices, yielding to input.
      return queue.add(`${rowKey}\u0000card`, () => startTransition(() => setShown(true)), inView ? WAKE_PRIORITY.visibleRow : WAKE_PRIORITY.nearbyRow);
    }, [shown, inView, queue, rowKey]);
    const region = useMemo<EditorRegion>(
      () => ({ active: inView || focused, schedule: (key, make) => queue.add(`${rowKey}\u0000${key}`, make, WAKE_PRIORITY.editor) }),
      [inView, focused, queue, rowKey],
    );
    const m = thread.context.messages[index];
    if (!m) return null;
    if (!shown) return <Placeholder m={m} height={height} />;
    return (
      <EditorRegionContext.Provider value={region}>
        <div onFocusCapture={focused ? undefined : () => setFocused(true)} data-jump-target={jumpTarget ? 'true' : undefined}>
          <MessageCard thread={thread} index={index} readOnly={readOnly} />
        </div>
      </EditorRegionContext.Provider>
    );
  },
  // The placeholder's height is taken once: a new measurement does not render the card again.
  (a, b) => a.thread === b.thread && a.index === b.index && a.readOnly === b.readOnly && a.rowKey === b.rowKey && a.inView === b.inView && a.queue === b.queue && a.jumpTarget === b.jumpTarget,
);
