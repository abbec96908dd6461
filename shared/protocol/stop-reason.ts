/**
 * Why a run stopped before the model was done: ReAct mode's turn cap (Max turns). The runner
 * records it on the run node (`attrs.stopReason`, `attrs.maxTurns`, `attrs.note`); the host copies
 * it into the run's RunRef (`stopped`); run history, the run bar and the detail panel show it.
 */

/** What a run node's attrs say about an early stop. */
export interface RunStop {
  reason: 'max_turns';
  /** Model calls made, the cap (an integer >= 1). */
  turns: number;
}

/** The sentence shown for a run stopped by the turn cap of `turns`. */
export function stopNote(turns: number): string {
  return `Stopped after ${turns} turn${turns === 1 ? '' : 's'} — the cap set in Max turns. Continue runs on from here.`;
}

/** The early stop recorded in a run node's attrs, or undefined (ended on its own, or attrs from an older runner). */
export function runStopOf(attrs: Record<string, unknown> | undefined): RunStop | undefined {
  if (attrs?.stopReason !== 'max_turns') return undefined;
  const turns = attrs.maxTurns;
  return { reason: 'max_turns', turns: typeof turns === 'number' && Number.isInteger(turns) && turns >= 1 ? turns : 1 };
}
