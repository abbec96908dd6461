/** Hooks over the window state; the Jotai store comes from the `<Provider>` in App. */
import { useMemo } from 'react';
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

/**
 * One field of the open thread's meta (undefined without a thread); renders only when that field
 * changes, not on every meta change (each edit's version, a run starting).
 */
export function useThreadMetaField<K extends keyof ThreadMeta>(key: K): ThreadMeta[K] | undefined {
  const s = useSession();
  const field = useMemo(() => (s ? atom((get) => get(s.metaAtom)[key]) : (none as Atom<null>)), [s, key]);
  return useAtomValue(field as Atom<ThreadMeta[K] | null>) ?? undefined;
}
