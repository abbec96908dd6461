/**
 * What an editor binds to when it edits a `Y.Text` field of the thread (the system prompt, a
 * message's text or thinking part; docs/architecture.md#multi-window-editing): the field's
 * `Y.Text` and the window's undo, as the session gives them (ThreadSession.boundText). The
 * editor binds with y-codemirror.next (y-binding.ts); its transactions carry a
 * {@link FieldSync} origin, which the window's undo history tracks as its own and merges per
 * field (`key`), like any edit of this window.
 */
import type * as Y from 'yjs';
import { YSyncConfig } from 'y-codemirror.next';

/**
 * A thread field held as `Y.Text`: the system prompt, part `part` of message `messageId`, or the
 * text of the result of tool call `callId` of message `messageId` (a result with one text part).
 */
export type TextField =
  | 'systemPrompt'
  | { messageId: string; part: number; field: 'text' | 'thinking' }
  | { messageId: string; callId: string; field: 'result' };

/** A field's `Y.Text` with the window's undo, for an editor to bind to. */
export interface BoundText {
  /** The field's text. A new object once the field is made again (an undone delete, a reload): bind again. */
  readonly ytext: Y.Text;
  /** The field's name for undo merging (typing in one field within 800 ms is one step). */
  readonly key: string;
  /** The window's undo and redo (what the Undo button does); false when nothing was done. */
  undo(): boolean;
  redo(): boolean;
  /** Edits are refused now (a run runs, the viewer). */
  readOnly(): boolean;
  /**
   * Called after each change the person typed into the bound editor (not one that came from the
   * document): a tool result marks itself typed (a template) here.
   */
  typed?(): void;
}

/**
 * The transaction origin of one bound editor (y-codemirror.next's sync configuration, which
 * its plugin uses as the origin of the editor's Yjs transactions), with the field's undo key.
 */
export class FieldSync extends YSyncConfig {
  constructor(
    ytext: Y.Text,
    readonly key: string,
  ) {
    super(ytext, null);
  }
}
