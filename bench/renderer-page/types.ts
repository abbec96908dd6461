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

/** Which tree the tree-scale scenarios mount: the real (virtualised) one, or every row (baseline). */
export type TreeMode = 'virtual' | 'all-rows';

/** The tree's make-up: a ReAct run (turns of llm + 2 tools under the run node), or a chain (each node the only child of the one before: nested agents, one level per node). */
export type TreeShape = 'react' | 'chain';

/** Fold a big finished tree (bench/renderer-page/tree-scale.tsx). */
export interface TreeFoldOptions {
  mode: TreeMode;
  /** Nodes in the tree. */
  nodes: number;
  /** Default 'react'. */
  shape?: TreeShape;
}

/** One step of the fold scenario: its work (ms, wall clock, from the action to the painted frame) and the treeitems in the DOM after it. */
export interface TreeFoldStep {
  ms: number;
  rows: number;
}

/** Grow a tree live (bench/renderer-page/tree-scale.tsx). */
export interface TreeGrowOptions {
  mode: TreeMode;
  nodes: number;
  /** Default 'react'. */
  shape?: TreeShape;
  /** Nodes arriving per second. */
  rate: number;
  /** Text deltas per second into the newest llm node. */
  deltaRate: number;
}

export interface TreeGrowResult {
  nodes: number;
  durationMs: number;
  frames: number;
  /** ms between animation frames: 95th percentile and worst. */
  frameP95: number;
  frameMax: number;
  rowFrames: number;
  rowFramesOver1: number;
  maxRowUpdatesPerFrame: number;
  longTasks: number[];
  /** The newest node's row is in view at the end (the view followed the run). */
  followed: boolean;
  mountedRows: number;
}
