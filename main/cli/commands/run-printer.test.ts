/** `stepwise run` prints the duration the runner measured, as the windows show it (shared/protocol/duration.ts). */
import { describe, expect, it } from 'vitest';
import { LiveTreePrinter, MAX_INDENT_LEVELS } from './run-printer';
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

describe('LiveTreePrinter depth', () => {
  it('prints a run nested 100,000 levels with the indent capped and deep levels numbered', () => {
    const lines: string[] = [];
    const p = new LiveTreePrinter((s) => lines.push(s));
    const N = 100_000;
    const nodes: ExecNode[] = Array.from({ length: N }, (_, i) => ({ id: `n${i}`, runId: 'r', ...(i && { parentId: `n${i - 1}` }), kind: i ? 'agent' : 'run', name: `a${i}`, status: 'running', startedAt: 0 }));
    p.apply({ v: 1, type: 'tree_update', runId: 'r', nodes: nodes as [ExecNode, ...ExecNode[]] });
    expect(lines.length).toBe(N);
    expect(lines[1]).toBe('  ▸ agent a1 — running\n');
    expect(lines[N - 1]).toBe(`${'  '.repeat(MAX_INDENT_LEVELS)}[level ${N - 1}] ▸ agent a${N - 1} — running\n`);
    expect(lines.filter((l) => l.length > 2 * MAX_INDENT_LEVELS + 60)).toEqual([]);
  });
});
