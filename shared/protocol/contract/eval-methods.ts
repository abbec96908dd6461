/**
 * The host methods of evaluation (docs/architecture.md#evaluation), spread into the host API
 * table (host-methods.ts): datasets in the workspace, batches started, watched, cancelled and
 * read from the app. Paths are workspace-relative with '/' separators.
 */
import { Type as T } from '@sinclair/typebox';
import { DatasetSchema } from '../../eval/dataset';
import { NodeStatusSchema } from '../nodes';
import { literals, method } from './define';

/** Most cases a batch runs at a time (a batch file asking more is refused). */
export const MAX_BATCH_CONCURRENCY = 32;
/** Most variants of one batch. */
export const MAX_BATCH_VARIANTS = 20;

const NonEmpty = T.String({ minLength: 1 });
const Path = T.String({ minLength: 1, maxLength: 4096 });
const None = T.Object({});
const Ok = T.Object({ ok: T.Literal(true) });

/** A variant of a batch (main/core/eval/variants.ts). */
export const VariantSchema = T.Object({
  name: T.String({ minLength: 1, maxLength: 200 }),
  model: T.Optional(T.String({ pattern: '^[^/\\s]+/\\S+$' })),
  scenario: T.Optional(T.String()),
  systemPrompt: T.Optional(T.String()),
  params: T.Optional(T.Record(T.String(), T.Unknown())),
});

const AssertionResultSchema = T.Object({
  type: T.String(),
  status: literals('pass', 'fail', 'error'),
  reason: T.String(),
  score: T.Optional(T.Number()),
});

const OutcomeSchema = T.Object({
  status: NodeStatusSchema,
  error: T.Optional(T.String()),
  finalText: T.String(),
  toolCalls: T.Array(T.Object({ name: T.String(), arguments: T.Unknown(), status: T.Optional(NodeStatusSchema) })),
  turns: T.Number(),
  inputTokens: T.Number(),
  outputTokens: T.Number(),
  costUsd: T.Optional(T.Number()),
  latencyMs: T.Optional(T.Number()),
});

/** One finished case × variant (shared/eval/results.ts CaseResult); `threadFile` is workspace-relative here. */
export const CaseResultSchema = T.Object({
  caseId: T.String(),
  variant: T.String(),
  status: literals('passed', 'failed', 'error'),
  runStatus: T.Optional(NodeStatusSchema),
  error: T.Optional(T.String()),
  threadId: T.Optional(T.String()),
  runId: T.Optional(T.String()),
  threadFile: T.Optional(T.String()),
  outcome: T.Optional(OutcomeSchema),
  assertions: T.Array(AssertionResultSchema),
  startedAt: T.Number(),
  endedAt: T.Number(),
  attempts: T.Number(),
  worker: T.Optional(T.String()),
});

export const BatchProgressSchema = T.Object({
  total: T.Integer({ minimum: 0 }),
  done: T.Integer({ minimum: 0 }),
  running: T.Integer({ minimum: 0 }),
  failed: T.Integer({ minimum: 0 }),
  etaMs: T.Optional(T.Number()),
});

/**
 * A batch as the batch list shows it. A batch whose file cannot be used (cut short, edited by
 * hand) is listed with `error` set: its id (the file's own when it names one, else its folder's
 * name), `name` its folder's name, `path`, and no thread, dataset, variants or progress; it
 * cannot be opened or resumed.
 */
export const BatchInfoSchema = T.Object({
  id: T.String(),
  name: T.String(),
  createdAt: T.Number(),
  /** The batch folder, workspace-relative. */
  path: T.String(),
  threadTitle: T.String(),
  datasetName: T.String(),
  variants: T.Array(T.String()),
  progress: BatchProgressSchema,
  /** Still running in this host. */
  live: T.Boolean(),
  /** Why the batch file cannot be used, one line naming the file and the fields (no absolute paths). */
  error: T.Optional(T.String()),
  /**
   * Lines of the batch's `results.jsonl` that could not be read (a host that died mid-write, a
   * hand edit): those cases count as not done, and resuming runs them again. Absent when none.
   */
  skippedLines: T.Optional(T.Integer({ minimum: 1 })),
});

/** A dataset file of the workspace. */
export const DatasetInfoSchema = T.Object({ path: T.String(), name: T.String(), cases: T.Integer({ minimum: 0 }), error: T.Optional(T.String()) });

export const EVAL_METHODS = {
  'eval.datasets': method(None, T.Array(DatasetInfoSchema), 'The dataset files (`*.dataset.json`) of the workspace.'),
  'eval.readDataset': method(T.Object({ path: Path }), DatasetSchema, 'Read one dataset file (schema-checked; errors name the place).'),
  'eval.saveDataset': method(
    T.Object({ path: T.Optional(Path), dataset: DatasetSchema }),
    T.Object({ path: T.String() }),
    'Write a dataset (a new one, without `path`, goes to `datasets/<name>.dataset.json`, or `<name> 2.dataset.json`… when that is taken: never over another file); refused when it does not check.',
  ),
  'eval.addRunAsCase': method(
    T.Object({ path: Path, threadId: NonEmpty, runId: NonEmpty }),
    DatasetSchema,
    'Add a case from a past run: the thread’s variable values as the case’s, the run’s final text as the expected value.',
  ),
  'eval.startBatch': method(
    T.Object({
      threadPath: Path,
      datasetPath: Path,
      variants: T.Array(VariantSchema, { minItems: 1, maxItems: MAX_BATCH_VARIANTS }),
      concurrency: T.Optional(T.Integer({ minimum: 1, maximum: MAX_BATCH_CONCURRENCY })),
      maxTurns: T.Optional(T.Integer({ minimum: 1 })),
      name: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
    }),
    BatchInfoSchema,
    'Start a batch: every case × variant in its own runner process; progress comes as `eval_progress` pushes.',
  ),
  'eval.cancelBatch': method(T.Object({ batchId: NonEmpty }), Ok, 'Cancel a running batch (finished cases are kept; resume runs the rest).'),
  'eval.resumeBatch': method(T.Object({ batchId: NonEmpty }), BatchInfoSchema, 'Run the cases an interrupted batch does not have yet.'),
  'eval.batches': method(None, T.Array(BatchInfoSchema), 'Every batch of the workspace, newest first, then those whose batch file cannot be used (with `error`).'),
  'eval.batch': method(
    T.Object({ batchId: NonEmpty }),
    T.Object({ info: BatchInfoSchema, results: T.Array(CaseResultSchema) }),
    'One batch and its results so far.',
  ),
};
