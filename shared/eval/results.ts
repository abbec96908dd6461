/**
 * A batch's results (docs/architecture.md#evaluation): one result per case × variant, and the
 * summaries the results grid and the CLI show — pass rate and latency percentiles per variant,
 * and a comparison of two batches case by case. Browser-safe.
 */
import type { NodeStatus } from '../protocol/nodes';
import type { AssertionResult } from './assertions';
import type { CaseOutcome } from './outcome';

/**
 * `passed`: the run completed and every assertion passed; `failed`: it ran, and an assertion
 * failed; `error`: the case could not run (its process died, the provider failed, a check
 * could not be made).
 */
export type CaseStatus = 'passed' | 'failed' | 'error';

/** One case × variant of a batch, finished. */
export interface CaseResult {
  caseId: string;
  variant: string;
  status: CaseStatus;
  /** The run's own status (absent when it never started). */
  runStatus?: NodeStatus;
  /** Why the case could not run, or the run's error. */
  error?: string;
  /** The case's thread (its file is `threadFile`, relative to the batch folder) and its run. */
  threadId?: string;
  runId?: string;
  threadFile?: string;
  outcome?: CaseOutcome;
  assertions: AssertionResult[];
  /** Epoch ms. */
  startedAt: number;
  endedAt: number;
  /** 1 unless the case was retried (its worker died mid-case). */
  attempts: number;
  /** Which worker ran it (`local` or a worker's name). */
  worker?: string;
}

/** The status of a case from its run status and its assertion results. */
export function caseStatus(runStatus: NodeStatus | undefined, assertions: AssertionResult[]): CaseStatus {
  if (runStatus !== 'completed' && runStatus !== 'awaiting_input') return 'error';
  if (assertions.some((a) => a.status === 'error')) return 'error';
  return assertions.every((a) => a.status === 'pass') ? 'passed' : 'failed';
}

/** Per-variant summary: counts, pass rate (passed / finished), latency p50/p95 (ms), tokens and cost totals. */
export interface VariantSummary {
  variant: string;
  total: number;
  passed: number;
  failed: number;
  error: number;
  passRate: number;
  p50Ms?: number;
  p95Ms?: number;
  tokens: number;
  costUsd?: number;
  /** Mean judge score over the cases a judge scored. */
  meanScore?: number;
}

/** The `p`-th percentile (0–100, nearest rank) of `values`; undefined for none. */
export function percentile(values: number[], p: number): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** Summaries of `results`, one per variant in `variants` order. */
export function summarize(results: CaseResult[], variants: string[]): VariantSummary[] {
  return variants.map((variant) => {
    const rs = results.filter((r) => r.variant === variant);
    const lat = rs.map((r) => r.outcome?.latencyMs).filter((x): x is number => x !== undefined);
    const costs = rs.map((r) => r.outcome?.costUsd).filter((x): x is number => x !== undefined);
    const scores = rs.flatMap((r) => r.assertions.map((a) => a.score).filter((x): x is number => x !== undefined));
    const passed = rs.filter((r) => r.status === 'passed').length;
    const s: VariantSummary = {
      variant,
      total: rs.length,
      passed,
      failed: rs.filter((r) => r.status === 'failed').length,
      error: rs.filter((r) => r.status === 'error').length,
      passRate: rs.length ? passed / rs.length : 0,
      tokens: rs.reduce((n, r) => n + (r.outcome ? r.outcome.inputTokens + r.outcome.outputTokens : 0), 0),
    };
    const p50 = percentile(lat, 50);
    const p95 = percentile(lat, 95);
    if (p50 !== undefined) s.p50Ms = p50;
    if (p95 !== undefined) s.p95Ms = p95;
    if (costs.length) s.costUsd = costs.reduce((a, b) => a + b, 0);
    if (scores.length) s.meanScore = scores.reduce((a, b) => a + b, 0) / scores.length;
    return s;
  });
}

/** One case × variant that changed between two batches. */
export interface CaseChange {
  caseId: string;
  variant: string;
  before: CaseStatus;
  after: CaseStatus;
}

/** Regressions (passed before, not now) and improvements (not passed before, passed now), by case and variant. */
export function compareBatches(before: CaseResult[], after: CaseResult[]): { regressions: CaseChange[]; improvements: CaseChange[]; unchanged: number } {
  const key = (r: CaseResult) => `${r.caseId}\u0000${r.variant}`;
  const old = new Map(before.map((r) => [key(r), r]));
  const regressions: CaseChange[] = [];
  const improvements: CaseChange[] = [];
  let unchanged = 0;
  for (const r of after) {
    const b = old.get(key(r));
    if (!b) continue;
    const change = { caseId: r.caseId, variant: r.variant, before: b.status, after: r.status };
    if (b.status === 'passed' && r.status !== 'passed') regressions.push(change);
    else if (b.status !== 'passed' && r.status === 'passed') improvements.push(change);
    else unchanged++;
  }
  return { regressions, improvements, unchanged };
}
