/** Hooks over the window state; the Jotai store comes from the `<Provider>` in App. */
import { atom, useAtomValue, type Atom } from 'jotai';
import type { Thread } from '../../../shared/thread/schema';
import { useApp } from './context';
import type { ThreadSession, ThreadMeta } from './thread-store';

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

/** A new id for messages and tool calls. */
export function newId(prefix = ''): string {
  const c = globalThis.crypto as Crypto | undefined;
  const raw = c?.randomUUID ? c.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return prefix + raw;
}
