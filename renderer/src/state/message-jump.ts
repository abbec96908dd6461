/**
 * A request to show one message of the open thread: set by the execution tree and the detail
 * panel ("Show in thread", features/execution/use-jump-to-message.ts), taken by the playground's
 * message list, which scrolls to the message, outlines it for a moment and, with `focus`,
 * moves the keyboard focus to it, or into its text editor (a message just added: the person
 * types at once). `seq` makes a repeated jump to the same message a new request.
 */
import { atom } from 'jotai';

export interface MessageJump {
  messageId: string;
  /**
   * Where the focus goes: the message's card (a jump from elsewhere in the window), its text
   * editor (a message just added), or nowhere (just scroll).
   */
  focus: 'card' | 'text' | false;
  /**
   * A run's first new message: the message before it (the question it answers) stays in view
   * above it when there is room for both, instead of being scrolled out (docs/ui.md#after-run).
   */
  withPrevious?: boolean;
  seq: number;
}

/** The latest jump request; read it in the window's Jotai store (`app.store`). */
export const messageJumpAtom = atom<MessageJump | null>(null);

let seq = 0;

/** A new request for `messageId` (by default the focus goes to its card). */
export function jumpTo(messageId: string, focus: MessageJump['focus'] = 'card', withPrevious = false): MessageJump {
  return { messageId, focus, withPrevious, seq: ++seq };
}
