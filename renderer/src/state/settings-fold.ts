/**
 * Whether the playground's thread settings (model, tools, system prompt, variables) are folded
 * into their one-line summary, per thread, for this window (docs/ui.md#after-run). They fold
 * when a run starts — after Run the pane shows the conversation and the run, not the form — and
 * open again on demand; a thread opened for the first time shows them open.
 */
import { atom } from 'jotai';

/** Thread id → folded; a thread not listed is open. */
export const settingsFoldedAtom = atom<Readonly<Record<string, boolean>>>({});
