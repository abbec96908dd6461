/**
 * Datasets for evaluation (docs/architecture.md#evaluation): cases of variables, expected
 * values and tags, with assertions for every case and per case. Stored in the workspace as
 * `<name>.dataset.json`; imported from and exported to JSONL and CSV (dataset-io.ts).
 * Browser-safe: the renderer's dataset grid and the host's batches share these types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literals } from '../protocol/contract/define';
import { ModelConfigSchema } from '../thread/model-config';

export const DATASET_VERSION = 1;

/** Where a text assertion looks: the run's final assistant text (the default). */
const TextTarget = Type.Optional(literals('final_text'));

/**
 * One check of a case's run. Text checks read the final assistant text (`equals`, `contains`
 * and `not_contains` without a value, or with an empty one, compare with the case's `expected`); `json_schema` reads it
 * as JSON, or a named tool call's arguments; `tool_called` passes when any call of `tool` ran
 * whose arguments contain `arguments` (a deep partial match); the limits compare the run's
 * totals (tokens in + out, cost in USD, latency in ms from the run's start to its end).
 * `judge` asks a model to score the output against a rubric (judge.ts).
 */
export const AssertionSchema = Type.Union([
  Type.Object({ type: Type.Literal('equals'), value: Type.Optional(Type.String()), target: TextTarget, ignoreCase: Type.Optional(Type.Boolean()), trim: Type.Optional(Type.Boolean()) }),
  Type.Object({ type: Type.Literal('contains'), value: Type.Optional(Type.String()), target: TextTarget, ignoreCase: Type.Optional(Type.Boolean()) }),
  Type.Object({ type: Type.Literal('not_contains'), value: Type.Optional(Type.String()), target: TextTarget, ignoreCase: Type.Optional(Type.Boolean()) }),
  Type.Object({ type: Type.Literal('regex'), pattern: Type.String(), flags: Type.Optional(Type.String()), target: TextTarget }),
  Type.Object({ type: Type.Literal('json_schema'), schema: Type.Record(Type.String(), Type.Unknown()), tool: Type.Optional(Type.String()) }),
  Type.Object({ type: Type.Literal('tool_called'), tool: Type.String(), arguments: Type.Optional(Type.Unknown()) }),
  Type.Object({ type: Type.Literal('tool_not_called'), tool: Type.String() }),
  Type.Object({ type: Type.Literal('turns'), max: Type.Optional(Type.Integer({ minimum: 0 })), min: Type.Optional(Type.Integer({ minimum: 0 })) }),
  Type.Object({ type: Type.Literal('max_tokens'), value: Type.Number({ minimum: 0 }) }),
  Type.Object({ type: Type.Literal('max_cost'), value: Type.Number({ minimum: 0 }) }),
  Type.Object({ type: Type.Literal('max_latency'), value: Type.Number({ minimum: 0 }) }),
  Type.Object({
    type: Type.Literal('judge'),
    /** What a good answer does, in words the judge model reads. */
    rubric: Type.String({ minLength: 1 }),
    /**
     * The judge's model: `provider/model`, or a whole model configuration (a scripted judge
     * with its script, for offline tests); default: the case's own model.
     */
    model: Type.Optional(Type.Union([Type.String(), ModelConfigSchema])),
    /** Lowest passing score on the 1–5 scale (default 3). */
    threshold: Type.Optional(Type.Number({ minimum: 1, maximum: 5 })),
  }),
]);
export type Assertion = Static<typeof AssertionSchema>;
export type AssertionType = Assertion['type'];

/** One case: variable values for the thread's templates, an expected value, tags, its own assertions. */
export const EvalCaseSchema = Type.Object({
  /** Stable within the dataset (results and resume key on it). */
  id: Type.String({ minLength: 1 }),
  /** name → value text, as `context.variables`. */
  vars: Type.Record(Type.String(), Type.String()),
  /** What the final text should be; `equals`/`contains` assertions without a value use it. */
  expected: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
  /** Checks of this case only, after the dataset's. */
  assertions: Type.Optional(Type.Array(AssertionSchema)),
  /** Where the case came from (a run added as a case). */
  source: Type.Optional(Type.Object({ threadId: Type.String(), runId: Type.String() })),
});
export type EvalCase = Static<typeof EvalCaseSchema>;

export const DatasetSchema = Type.Object({
  version: Type.Literal(DATASET_VERSION),
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  /** Checks of every case. */
  assertions: Type.Array(AssertionSchema),
  cases: Type.Array(EvalCaseSchema),
});
export type Dataset = Static<typeof DatasetSchema>;

/** The file name suffix of a dataset in the workspace. */
export const DATASET_SUFFIX = '.dataset.json';

/** An empty dataset named `name`. */
export function emptyDataset(name: string): Dataset {
  return { version: DATASET_VERSION, name, assertions: [], cases: [] };
}
