/** `eval.*`: datasets and batches, through the host's EvalService (main/core/eval/eval-service.ts). */
import { HostError } from '../errors';
import type { HostContext } from '../host-context';
import type { DomainHandlers } from './types';

function evals(ctx: HostContext) {
  if (!ctx.evals) throw new HostError('unavailable', 'evaluation is not available in this host');
  return ctx.evals;
}

export const evalHandlers: DomainHandlers<'eval'> = {
  'eval.datasets': async (ctx) => evals(ctx).datasets(),
  'eval.readDataset': async (ctx, _c, p) => evals(ctx).readDataset(p.path),
  'eval.saveDataset': async (ctx, _c, p) => evals(ctx).saveDataset(p.path, p.dataset),
  'eval.addRunAsCase': async (ctx, _c, p) => evals(ctx).addRunAsCase(p.path, p.threadId, p.runId),
  'eval.startBatch': async (ctx, _c, p) => evals(ctx).start(p),
  'eval.cancelBatch': async (ctx, _c, p) => {
    evals(ctx).cancel(p.batchId);
    return { ok: true as const };
  },
  'eval.resumeBatch': async (ctx, _c, p) => evals(ctx).resume(p.batchId),
  'eval.batches': async (ctx) => evals(ctx).batches(),
  'eval.batch': async (ctx, _c, p) => evals(ctx).batch(p.batchId),
};
