/** `stepwise run` prints the duration the runner measured, as the windows show it (shared/protocol/duration.ts). */
import { describe, expect, it } from 'vitest';
import { LiveTreePrinter } from './run-printer';
import type { ExecNode } from '../../../shared/protocol/nodes';

describe('LiveTreePrinter durations', () => {
  it("prints a closed node's stored duration in the windows' format, not its wall-clock span", () => {
    let out = '';
    const p = new LiveTreePrinter((s) => (out += s));
    const run: ExecNode = { id: 'r.1', runId: 'r', kind: 'run', name: 'step', status: 'running', startedAt: 1000 };
    p.apply({ v: 1, type: 'tree_update', runId: 'r', nodes: [run] });
    p.apply({ v: 1, type: 'tree_update', runId: 'r', nodes: [{ ...run, status: 'completed', endedAt: 1835, durationMs: 437 }] });
    expect(out).toContain('run step — completed (437 ms)');
    expect(out).not.toContain('835');
    p.apply({ v: 1, type: 'tree_update', runId: 'r', nodes: [{ id: 'r.2', runId: 'r', kind: 'run', name: 'slow', status: 'completed', startedAt: 0, endedAt: 2000, durationMs: 1670 }] });
    expect(out).toContain('run slow — completed (1.67 s)');
  });
});
