/**
 * The live journal of one run (docs/architecture.md#run-journal): `<runId>.jsonl` beside where
 * its run file will be, one JSON object per line, only ever appended to while the run runs, so
 * what a checkpoint writes is what changed since the last one, never the whole run again. At
 * close the run file (`<runId>.json`, the whole RunRecord) replaces it. Lines ({@link JournalLine}):
 *
 * - `run`: the first line: the run's identity (RunInfo);
 * - `msg`: a runner message the bridge applied to the run: `tree_update`, `node_update`,
 *   `llm_record` (its request stored against the previous record's) or `run_result`, as it arrived;
 * - `text`: what a live node streamed on one channel since the previous checkpoint (the
 *   assembled deltas, appended to what the node holds);
 * - `seen`: when the host last heard from the run (`lastEventAt`).
 *
 * Replaying the lines through a LiveRun, the bridge's own replica, gives the RunRecord the
 * run had at its last checkpoint. A last line cut short by a crash is skipped. A compacted
 * journal is the shortest list of such lines that replays to the run as it was: a `run` line
 * starts the replay afresh.
 */
import type { NodeUpdate, RunResult, TreeUpdate, DeltaChannel } from '../../../shared/protocol/envelopes';
import { LiveRun, type RunInfo, type StoredRecord } from '../bridge/live-run';

/** A runner message kept in the journal; a model call's record as the run keeps it (LiveRun.addRecord). */
export type JournaledMessage = TreeUpdate | NodeUpdate | ({ v: 1; type: 'llm_record' } & StoredRecord) | RunResult;

/** One line of a run's journal. */
export type JournalLine =
  | { k: 'run'; info: RunInfo & { startedAt: number } }
  | { k: 'msg'; msg: JournaledMessage }
  | { k: 'text'; nodeId: string; channel: DeltaChannel; index: number; delta: string; toolCallId?: string; toolName?: string }
  | { k: 'seen'; at: number };

/** The run a journal's text describes, as a live run (undefined when it has no readable first line). */
export function replayJournal(text: string): LiveRun | undefined {
  let run: LiveRun | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]) continue;
    let line: JournalLine;
    try {
      line = JSON.parse(lines[i]) as JournalLine;
    } catch {
      if (lines.slice(i + 1).some((l) => l)) continue; // a damaged line inside: skip it, keep the rest
      break; // the last line, cut short by a crash
    }
    if (line.k === 'run') run = new LiveRun(line.info);
    else if (run) applyLine(run, line);
  }
  return run;
}

function applyLine(run: LiveRun, line: Exclude<JournalLine, { k: 'run' }>): void {
  switch (line.k) {
    case 'msg': {
      const m = line.msg;
      if (m.type === 'tree_update') run.applyTree(m);
      else if (m.type === 'node_update') run.applyUpdate(m);
      else if (m.type === 'run_result') run.result = m;
      else {
        const { v: _v, type: _t, ...rec } = m;
        run.addRecord(rec);
      }
      return;
    }
    case 'text': {
      const seq = (run.live(line.nodeId)?.seq ?? 0) + 1;
      const { k: _k, ...d } = line;
      run.applyDelta({ v: 1, type: 'llm_delta', runId: run.runId, ...d, seq });
      return;
    }
    case 'seen':
      run.touch(line.at);
      return;
  }
}
