/**
 * A tooltip for a control in an action bar: it opens below the control (the bar sits under the
 * thread title, which a tooltip above would hide), on hover after {@link HOVER_OPEN_MS} and at
 * once on keyboard focus, and closes when the control is pressed — so it does not stay over the
 * window while the run it started runs. The hover delay also keeps its placement out of the task
 * that starts a run: the pointer rests on the bar after the click, and a tooltip opening at once
 * on the control that slides under it would lay out the whole changed page to place itself.
 */
import { cloneElement, useEffect, useRef, useState, type ReactElement, type SyntheticEvent } from 'react';
import { Tooltip } from '@mantine/core';

type Handlers = Partial<Record<'onMouseEnter' | 'onMouseLeave' | 'onFocus' | 'onBlur' | 'onClick' | 'onPointerDown', (e: SyntheticEvent) => void>>;

/** How long the pointer rests on the control before the tooltip opens, ms. */
export const HOVER_OPEN_MS = 400;

/** `children`: one element that takes mouse, focus and click handlers (its own are kept). */
export function BarTooltip({ label, children }: { label: React.ReactNode; children: ReactElement<Handlers> }) {
  const [opened, setOpened] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const cancel = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
  };
  useEffect(() => cancel, []);
  const own = children.props;
  const chain = (name: keyof Handlers, open: boolean) => (e: SyntheticEvent) => {
    cancel();
    if (open) timer.current = setTimeout(() => setOpened(true), HOVER_OPEN_MS);
    else setOpened(false);
    own[name]?.(e);
  };
  return (
    <Tooltip label={label} opened={opened} position="bottom" withinPortal>
      {cloneElement(children, {
        onMouseEnter: chain('onMouseEnter', true),
        onMouseLeave: chain('onMouseLeave', false),
        onFocus: (e: SyntheticEvent) => {
          // Focus that follows a press (the click's own focus) does not reopen it.
          if ((e.target as HTMLElement).matches?.(':focus-visible')) {
            cancel();
            setOpened(true);
          }
          own.onFocus?.(e);
        },
        onBlur: chain('onBlur', false),
        onPointerDown: chain('onPointerDown', false),
        onClick: chain('onClick', false),
      })}
    </Tooltip>
  );
}
