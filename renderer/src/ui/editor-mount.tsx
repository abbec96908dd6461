/**
 * When editors are made. A CodeMirror view costs milliseconds to make (and forces a layout);
 * a thread of hundreds of messages cannot make them all at once. Under an
 * {@link EditorRegionContext}, PromptEditor and JsonEditor (editors.tsx) first show their text
 * as static text laid out like the editor (static-editor.tsx), with the same accessible name.
 * While the region is active (in view, or focused) each editor asks the region to make it, and
 * the region makes them in turn, one per task (ui/wake-queue.ts). Focusing or
 * clicking the static text makes that editor at once, with the focus and the cursor where the
 * person clicked. Outside any region, editors are made at once.
 */
import { createContext, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';

/** Where the person asked for an editor: the click point in client px, if it was a click. */
export interface FocusRequest {
  x?: number;
  y?: number;
}

/** A part of the window whose editors are made in turn. */
export interface EditorRegion {
  /** The region is in view or has the focus: its editors are to be made. */
  active: boolean;
  /** Queue `make` under `key` (unique in the region); returns a function that withdraws it. */
  schedule(key: string, make: () => void): () => void;
}

/** The region editors are in; none: made at once. */
export const EditorRegionContext = createContext<EditorRegion | null>(null);

/** One editor's state: whether it is made, the focus it is to take when made, and how to make it now. */
export interface LiveEditor {
  live: boolean;
  /** Focus to take as the editor is made (read while rendering, dropped once committed). */
  focus: FocusRequest | null;
  wake(focus?: FocusRequest): void;
}

/** Whether the calling editor is made yet, in the region it is in. */
export function useLiveEditor(): LiveEditor {
  const region = useContext(EditorRegionContext);
  const key = useId();
  const [live, setLive] = useState(!region);
  const focus = useRef<FocusRequest | null>(null);
  const active = !!region?.active;
  useEffect(() => {
    if (live || !region || !active) return;
    return region.schedule(key, () => setLive(true));
    // The region object changes with `active`; scheduling follows that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live, active, key]);
  // The editor has been made (and took the focus it was asked to): drop the request.
  useLayoutEffect(() => {
    if (live) focus.current = null;
  }, [live]);
  return {
    live,
    focus: focus.current,
    wake: (f) => {
      if (f) focus.current = f;
      setLive(true);
    },
  };
}
