/**
 * A request to show one message of the open thread: set by the execution tree and the detail
 * panel ("Show in thread", features/execution/use-jump-to-message.ts), taken by the playground's
 * message list, which scrolls to the message, outlines it for a moment and, with `focus`,
 * moves the keyboard focus to it. `seq` makes a repeated jump to the same message a new request.
 */
import { atom } from 'jotai';

export interface MessageJump {
  messageId: string;
  /** Move the focus to the message (a jump from elsewhere in the window), not just scroll. */
  focus: boolean;
  seq: number;
}

/** The latest jump request; read it in the window's Jotai store (`app.store`). */
export const messageJumpAtom = atom<MessageJump | null>(null);

let seq = 0;

/** A new request for `messageId`. */
export function jumpTo(messageId: string, focus = true): MessageJump {
  return { messageId, focus, seq: ++seq };
}
