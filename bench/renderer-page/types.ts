/** What the renderer benchmark page is asked to do and what it reports (bench/renderer-page/main.tsx). */
export interface RenderBenchOptions {
  mode: 'frame' | 'sync';
  nodes: number;
  /** Deltas per second per node. */
  rate: number;
  durationMs: number;
  seed: number;
}

export interface RenderBenchResult {
  frames: number;
  deltas: number;
  commits: number;
  maxCommitsPerFrame: number;
  /** Row × frame pairs with a DOM update, and those with more than one. */
  rowFrames: number;
  rowFramesOver1: number;
  maxRowUpdatesPerFrame: number;
  longTasks: number[];
  textOk: boolean;
}
