/**
 * The playground's layout, remembered in the window's local storage like the panel sizes:
 * `stacked` (settings above the messages, one scroll) or `side-by-side` (settings — model,
 * tools, system prompt, variables — beside the message list, each scrolling on its own).
 */
import { atomWithStorage, createJSONStorage } from 'jotai/utils';

export type PlaygroundLayout = 'stacked' | 'side-by-side';

/** The local storage key of {@link playgroundLayoutAtom}. */
export const PLAYGROUND_LAYOUT_KEY = 'stepwise.playgroundLayout';

/** The chosen layout; read at start, written on each change (kept in memory where there is no local storage, as in unit tests). */
export const playgroundLayoutAtom = atomWithStorage<PlaygroundLayout>(PLAYGROUND_LAYOUT_KEY, 'stacked', createJSONStorage<PlaygroundLayout>(() => globalThis.localStorage), { getOnInit: true });
