/** What the message-list benchmark page is asked to do and what it reports (bench/messages-page/main.tsx). */
export interface MessagesBenchOptions {
  /** `virtual`: today's Playground; `old`: the list before virtualisation (old-playground.tsx). */
  list: 'virtual' | 'old';
  /** URL of the thread JSON to open (served beside the page). */
  threadUrl: string;
  /** Pixels scrolled per frame when scrolling through the list (0: no scrolling). */
  scrollStep: number;
  /** Give up waiting for the editors in view after this long, ms. */
  settleTimeoutMs: number;
}

export interface MessagesBenchResult {
  messages: number;
  /** From asking to open the thread to the first message card painted, ms. */
  firstVisibleMs: number;
  /** From asking to open to every editor in view made (no static text left in view), ms. */
  editorsReadyMs: number;
  /** Long tasks (ms) from asking to open until the editors in view are made. */
  openLongTasks: number[];
  /** DOM elements in the message list once open, and the most seen while scrolling. */
  listNodes: number;
  maxListNodes: number;
  /** Long tasks (ms) while scrolling to the end and back to the top. */
  scrollLongTasks: number[];
  /** Frames taken to scroll to the end and back. */
  scrollFrames: number;
  /** The last message was shown at the end of the scroll. */
  reachedEnd: boolean;
}
