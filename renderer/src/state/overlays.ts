/** Window overlays opened from the keyboard: the command palette (Mod+K) and the shortcut help sheet (`?`). */
import { atom } from 'jotai';

export const paletteOpenAtom = atom(false);
export const shortcutsHelpOpenAtom = atom(false);
/** Bumped to ask Run history to compare its two ticked runs (the palette's Compare runs). */
export const compareRequestAtom = atom(0);
