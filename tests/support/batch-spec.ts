/** A batch file's content as the host writes it (main/core/eval/batch-spec.ts): one case, one variant. */
import { emptyDataset } from '../../shared/eval/dataset';
import type { BatchSpec } from '../../main/core/eval/batch-files';
import { scriptedThread } from './threads';

/** A good batch spec with `id` made at `createdAt` (epoch ms). */
export function batchSpec(id = '2026-01-01T00-00-00-abc123', createdAt = 1): BatchSpec {
  return {
    id,
    name: 'arithmetic',
    createdAt,
    threadFile: 't.json',
    thread: scriptedThread([{ text: '4' }]),
    datasetFile: 'datasets/arithmetic.dataset.json',
    dataset: { ...emptyDataset('arithmetic'), cases: [{ id: 'c1', vars: { q: '2+2' } }] },
    variants: [{ name: 'base' }],
    concurrency: 4,
    maxTurns: 10,
    scheduler: 'local',
  };
}
