/** Hooks over the window state; the Jotai store comes from the `<Provider>` in App. */
import { atom, useAtomValue, type Atom } from 'jotai';
import type { Thread } from '../../../shared/thread/schema';
import { useApp } from './context';
import type { ThreadSession, ThreadMeta } from './thread-session';

const none = atom(null);

/** The open thread's session, or null. */
export function useSession(): ThreadSession | null {
  return useAtomValue(useApp().sessionAtom);
}

/** The open thread document, or null. */
export function useThread(): Thread | null {
  const s = useSession();
  return useAtomValue((s?.threadAtom ?? none) as Atom<Thread | null>);
}

/** The open thread's meta (path, version, running run, undo state), or null. */
export function useThreadMeta(): ThreadMeta | null {
  const s = useSession();
  return useAtomValue((s?.metaAtom ?? none) as Atom<ThreadMeta | null>);
}
