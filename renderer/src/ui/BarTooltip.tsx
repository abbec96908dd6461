/**
 * A tooltip for a control in an action bar: it opens below the control (the bar sits under the
 * thread title, which a tooltip above would hide), on hover and on keyboard focus, and closes
 * when the control is pressed — so it does not stay over the window while the run it started runs.
 */
import { cloneElement, useState, type ReactElement, type SyntheticEvent } from 'react';
import { Tooltip } from '@mantine/core';

type Handlers = Partial<Record<'onMouseEnter' | 'onMouseLeave' | 'onFocus' | 'onBlur' | 'onClick' | 'onPointerDown', (e: SyntheticEvent) => void>>;

/** `children`: one element that takes mouse, focus and click handlers (its own are kept). */
export function BarTooltip({ label, children }: { label: React.ReactNode; children: ReactElement<Handlers> }) {
  const [opened, setOpened] = useState(false);
  const own = children.props;
  const chain = (name: keyof Handlers, open: boolean) => (e: SyntheticEvent) => {
    setOpened(open);
    own[name]?.(e);
  };
  return (
    <Tooltip label={label} opened={opened} position="bottom" withinPortal>
      {cloneElement(children, {
        onMouseEnter: chain('onMouseEnter', true),
        onMouseLeave: chain('onMouseLeave', false),
        onFocus: (e: SyntheticEvent) => {
          // Focus that follows a press (the click's own focus) does not reopen it.
          if ((e.target as HTMLElement).matches?.(':focus-visible')) setOpened(true);
          own.onFocus?.(e);
        },
        onBlur: chain('onBlur', false),
        onPointerDown: chain('onPointerDown', false),
        onClick: chain('onClick', false),
      })}
    </Tooltip>
  );
}
