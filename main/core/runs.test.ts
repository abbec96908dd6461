/** runRefOf: the thread's light reference to a run carries the run's summed usage and cost. */
import { describe, expect, it } from 'vitest';
import type { ExecNode } from '../../shared/protocol/nodes';
import { runRefOf } from './runs';

const node = (id: string, kind: ExecNode['kind'], extra: Partial<ExecNode> = {}): ExecNode => ({ id, runId: 'r', kind, name: kind, status: 'completed', startedAt: 1, endedAt: 2, ...extra });

describe('runRefOf usage', () => {
  it('sums the model calls with cached and reasoning tokens and their cost; the run node\'s own sum is not counted twice', () => {
    const nodes = [
      node('root', 'run', { usage: { inputTokens: 1100, outputTokens: 60, costUsd: 0.02 } }),
      node('l1', 'llm', { parentId: 'root', usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, reasoningTokens: 20, costUsd: 0.015 } }),
      node('t1', 'tool', { parentId: 'l1' }),
      node('s1', 'sampling', { parentId: 't1', usage: { inputTokens: 100, outputTokens: 10, cacheWriteTokens: 30, costUsd: 0.005 } }),
    ];
    const ref = runRefOf({ runId: 'r', startedAt: 1, endedAt: 2, status: 'completed', mode: 'react', nodes });
    expect(ref.usage).toEqual({ inputTokens: 1100, outputTokens: 60, cacheReadTokens: 800, cacheWriteTokens: 30, reasoningTokens: 20, costUsd: 0.02 });
  });

  it('an unpriced call leaves the run with tokens only', () => {
    const nodes = [node('root', 'run'), node('l1', 'llm', { parentId: 'root', usage: { inputTokens: 5, outputTokens: 1, costUsd: 0.1 } }), node('l2', 'llm', { parentId: 'root', usage: { inputTokens: 5, outputTokens: 1 } })];
    expect(runRefOf({ runId: 'r', startedAt: 1, status: 'completed', mode: 'react', nodes }).usage).toEqual({ inputTokens: 10, outputTokens: 2 });
  });
});
