/** What the playground shows of an open thread besides the document. */
export interface ThreadMeta {
  path: string;
  version: number;
  /** Id of the run of this thread that is running; the thread is read-only meanwhile. */
  runningRunId?: string;
  canUndo: boolean;
  canRedo: boolean;
  /** Last failure (edit rejected, reload failed), for an inline error. */
  error?: { message: string; details?: string };
  /** Runs whose result was undone in this window (their records stay in run history). */
  undoneRuns: string[];
}
