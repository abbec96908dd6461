/** The middle panel: the playground of the open thread, or the whole load error of a malformed thread file the user opened. */
import { useAtom, useAtomValue } from 'jotai';
import { useApp } from '../../state/context';
import { Playground } from './Playground';
import { BrokenThread } from './BrokenThread';

export function PlaygroundPane() {
  const app = useApp();
  const [broken, setBroken] = useAtom(app.brokenEntryAtom);
  const { entries } = useAtomValue(app.workspaceAtom);
  // The entry as the workspace lists it now: a file fixed (or gone) meanwhile shows no stale error.
  const current = broken && entries.find((e) => e.path === broken.path);
  if (current?.error) return <BrokenThread entry={current} onClose={() => setBroken(null)} />;
  return <Playground />;
}
