/**
 * Usage rolled up: a run's usage is the sum of its model calls (`llm` and `sampling` nodes), a
 * thread's the sum of its runs. Cached and reasoning tokens are summed where reported; the cost
 * is summed only when every call in the sum had one (an unpriced call makes the total unknown,
 * not smaller).
 */
import type { ExecNode, Usage } from './nodes';

const OPTIONAL = ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** The sum of `usages` (undefined ones skipped); undefined when there is none. */
export function sumUsage(usages: readonly (Usage | undefined)[]): Usage | undefined {
  const present = usages.filter((u): u is Usage => !!u);
  if (!present.length) return undefined;
  const total: Usage = { inputTokens: 0, outputTokens: 0 };
  for (const u of present) {
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
    for (const k of OPTIONAL) if (u[k] !== undefined) total[k] = (total[k] ?? 0) + u[k]!;
  }
  if (present.every((u) => u.costUsd !== undefined)) total.costUsd = present.reduce((s, u) => s + u.costUsd!, 0);
  return total;
}

/** The usage of a run: the sum over its model-call nodes (`llm`, `sampling`), nested ones included. */
export function runUsage(nodes: readonly Pick<ExecNode, 'kind' | 'usage'>[]): Usage | undefined {
  return sumUsage(nodes.filter((n) => n.kind === 'llm' || n.kind === 'sampling').map((n) => n.usage));
}

/** `$0.0123`, with more digits for small amounts; "—" when unknown. */
export function formatCost(usd: number | undefined): string {
  if (usd === undefined || !Number.isFinite(usd)) return '—';
  return `$${usd.toFixed(usd < 0.01 ? 5 : 4)}`;
}

/**
 * One line for a usage: `1200 in · 80 out · 1000 cached · 40 reasoning · $0.0012`. Cache and
 * reasoning counts appear when reported; the cost when known.
 */
export function usageLine(u: Usage): string {
  const parts = [`${u.inputTokens} in`, `${u.outputTokens} out`];
  if (u.cacheReadTokens) parts.push(`${u.cacheReadTokens} cached`);
  if (u.cacheWriteTokens) parts.push(`${u.cacheWriteTokens} cache written`);
  if (u.reasoningTokens) parts.push(`${u.reasoningTokens} reasoning`);
  if (u.costUsd !== undefined) parts.push(formatCost(u.costUsd));
  return parts.join(' · ');
}
