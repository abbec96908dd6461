/** The middle panel: the playground of the open thread, or the whole load error of a malformed thread file the user opened. */
import { useEffect } from 'react';
import { useAtom, useAtomValue } from 'jotai';
import { useApp } from '../../state/context';
import { useSession } from '../../state/hooks';
import { Playground } from './Playground';
import { BrokenThread } from './BrokenThread';

export function PlaygroundPane() {
  const app = useApp();
  const [broken, setBroken] = useAtom(app.brokenEntryAtom);
  const { entries } = useAtomValue(app.workspaceAtom);
  const sessionId = useSession()?.id;
  // Another thread opened (New thread, the palette, a link): it replaces the error shown.
  useEffect(() => setBroken(null), [sessionId, setBroken]);
  // The entry as the workspace lists it now: a file fixed (or gone) meanwhile shows no stale error.
  const current = broken && entries.find((e) => e.path === broken.path);
  if (current?.error) return <BrokenThread entry={current} onClose={() => setBroken(null)} />;
  return <Playground />;
}
