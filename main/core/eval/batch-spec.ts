/**
 * The schema of a batch file (`.batch.json`, batch-files.ts) and its check: every field against
 * the limits the host API gives a new batch (shared/protocol/contract/eval-methods.ts), the
 * thread by the thread validator (after migration, as a thread file), the dataset by the
 * dataset check. A file edited by hand or cut short is refused with problems naming the field
 * (a JSON pointer), never read half-way.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { checkDataset } from '../../../shared/eval/dataset-io';
import type { Dataset } from '../../../shared/eval/dataset';
import { MAX_BATCH_CONCURRENCY, MAX_BATCH_VARIANTS, VariantSchema } from '../../../shared/protocol/contract/eval-methods';
import { migrateThread } from '../../../shared/thread/migrate';
import type { Thread } from '../../../shared/thread/schema';
import { schemaProblems, validateThread } from '../../../shared/thread/validate';

/** The fields of a batch file other than its thread and dataset (checked by their own validators). */
const BatchFieldsSchema = T.Object({
  id: T.String({ minLength: 1, maxLength: 200 }),
  name: T.String(),
  createdAt: T.Number(),
  threadFile: T.String(),
  thread: T.Unknown(),
  datasetFile: T.Optional(T.String()),
  dataset: T.Unknown(),
  variants: T.Array(VariantSchema, { minItems: 1, maxItems: MAX_BATCH_VARIANTS }),
  concurrency: T.Integer({ minimum: 1, maximum: MAX_BATCH_CONCURRENCY }),
  maxTurns: T.Integer({ minimum: 1 }),
  scheduler: T.String({ minLength: 1 }),
});

/** What a batch runs, fixed when it starts. */
export type BatchSpec = Omit<Static<typeof BatchFieldsSchema>, 'thread' | 'dataset'> & {
  /** The thread as it was (`threadFile`: its file, relative to the workspace when inside it). */
  thread: Thread;
  dataset: Dataset;
};

/** A checked batch file, or its problems as `<pointer>: <what>` (at most 5). */
export type BatchSpecCheck = { ok: true; spec: BatchSpec } | { ok: false; problems: string[] };

const at = (pointer: string, message: string) => `${pointer || '/'}: ${message}`;

/** Checks a parsed batch file. Never throws. */
export function checkBatchSpec(value: unknown): BatchSpecCheck {
  const fields = schemaProblems(BatchFieldsSchema, value).map((p) => at(p.pointer, p.message));
  if (fields.length) return { ok: false, problems: fields.slice(0, 5) };
  const raw = value as Record<string, unknown>;
  const problems: string[] = [];
  const thread = validateThread(migrateThread(raw.thread));
  if (!thread.ok) problems.push(...thread.errors.map((e) => at(`/thread${e.pointer}`, e.message)));
  const dataset = checkDataset(raw.dataset);
  if (!dataset.ok) problems.push(...dataset.errors.map((e) => `/dataset${e.startsWith('/: ') ? e.slice(1) : e}`));
  if (problems.length || !thread.ok || !dataset.ok) return { ok: false, problems: problems.slice(0, 5) };
  return { ok: true, spec: { ...(raw as Omit<BatchSpec, 'thread' | 'dataset'>), thread: thread.thread, dataset: dataset.dataset } };
}
