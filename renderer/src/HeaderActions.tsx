/**
 * The header's window actions, each a labelled button (docs/ui.md#header): Commands (the palette,
 * Mod+K), Side-by-side (the playground layout), the theme, Settings. Words, not glyphs: a lone
 * ⌕ read as search and ◫ as nothing at all.
 */
import { Button, Kbd, Tooltip } from '@mantine/core';
import type { PlaygroundLayout } from './state/layout';
import { modKey } from './ui/format';

/** `onSettings` absent: no Settings button (the read-only viewer). */
export function HeaderActions({ layoutChoice, onLayout, scheme, onTheme, onPalette, onSettings }: {
  layoutChoice: PlaygroundLayout;
  onLayout: (next: PlaygroundLayout) => void;
  scheme: 'light' | 'dark';
  onTheme: () => void;
  onPalette: () => void;
  onSettings?: () => void;
}) {
  const sideBySide = layoutChoice === 'side-by-side';
  const mod = modKey();
  return (
    <>
      <Tooltip label="Every action, and threads by title; ? lists the shortcuts">
        <Button size="compact-sm" variant="subtle" color="gray" aria-keyshortcuts="Control+K Meta+K" onClick={onPalette}
          rightSection={<Kbd size="xs" aria-hidden>{mod}+K</Kbd>}>
          Commands
        </Button>
      </Tooltip>
      <Tooltip label={sideBySide ? 'Stack settings above the messages' : 'Settings and messages side by side, each scrolling on its own'}>
        <Button size="compact-sm" variant={sideBySide ? 'light' : 'subtle'} color={sideBySide ? undefined : 'gray'} aria-label="Side-by-side layout" aria-pressed={sideBySide}
          onClick={() => onLayout(sideBySide ? 'stacked' : 'side-by-side')}>
          Side-by-side
        </Button>
      </Tooltip>
      {/* A toggle with one name in both themes (pressed while dark), not a label that flips. */}
      <Button size="compact-sm" variant={scheme === 'dark' ? 'light' : 'subtle'} color={scheme === 'dark' ? undefined : 'gray'} aria-pressed={scheme === 'dark'} onClick={onTheme}>
        Dark theme
      </Button>
      {onSettings && (
        <Button size="compact-sm" variant="subtle" color="gray" onClick={onSettings}>
          Settings
        </Button>
      )}
    </>
  );
}
