/**
 * The Thread document (docs/architecture.md#the-thread-document): one JSON file holding everything one experiment needs and
 * nothing derived. TypeBox schemas; `Static<>` gives the TypeScript types. Its parts have their
 * own modules: messages (./messages.ts), tools (./tools.ts), the model (./model-config.ts),
 * evaluations (./evaluation.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { UsageSchema, NodeStatusSchema } from '../protocol/nodes';
import { literals } from '../protocol/contract/define';
import { EvaluationSchema, RubricSchema } from './evaluation';
import { IdSchema as Id, MessageSchema } from './messages';
import { ToolSchema } from './tools';
import { ModelConfigSchema } from './model-config';

/** Current schema version of the Thread document. Older versions are migrated on read. */
export const THREAD_VERSION = 1;

export const RunModeSchema = literals('step', 'react', 'tool');
export type RunMode = Static<typeof RunModeSchema>;

/** A light reference to a run stored under runs/<threadId>/<runId>.json. */
export const RunRefSchema = Type.Object({
  id: Id,
  startedAt: Type.Number(),
  endedAt: Type.Optional(Type.Number()),
  /** How long the run ran, in ms: its root node's `durationMs` (shared/protocol/duration.ts). */
  durationMs: Type.Optional(Type.Number({ minimum: 0 })),
  status: NodeStatusSchema,
  mode: RunModeSchema,
  preview: Type.Optional(Type.String()),
  usage: Type.Optional(UsageSchema),
  /**
   * Why a completed run stopped early: `max_turns` = ReAct mode hit its turn cap (`turns` model
   * calls) with tool results still unanswered; Continue runs on. Absent for a run that ended on its own.
   */
  stopped: Type.Optional(Type.Object({ reason: literals('max_turns'), turns: Type.Integer({ minimum: 1 }) })),
  /** The scenario (`context.scenarios[].name`) whose variables the run used. */
  scenario: Type.Optional(Type.String()),
  /**
   * A time-travel run: re-ran run `runId` from its model call `call` (1-based), its recorded
   * model outputs and tool results before that call reused, the rest live.
   */
  from: Type.Optional(Type.Object({ runId: Id, call: Type.Integer({ minimum: 1 }) })),
  /**
   * The run that began this run's turn (docs/architecture.md#turns): set on a tool run and on a
   * continuing model run, naming the turn's first model run; absent on a turn's first run.
   */
  turn: Type.Optional(Id),
});
export type RunRef = Static<typeof RunRefSchema>;

/**
 * Where a branch came from: the source thread and the message it was cut after, or the run and
 * node it was cut at (then `messageId` is that node's message when the run recorded one).
 */
export const BranchOfSchema = Type.Object({
  threadId: Id,
  /** The source's title when the branch was made (shown when the source is gone). */
  title: Type.Optional(Type.String()),
  messageId: Type.Optional(Id),
  runId: Type.Optional(Id),
  nodeId: Type.Optional(Id),
});
export type BranchOf = Static<typeof BranchOfSchema>;

/** A template variable's name: a JavaScript-style identifier, as Nunjucks/Jinja accept. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A named set of variable values (LLM Space: one entry of `variableVariants`). */
export const ScenarioSchema = Type.Object({
  name: Type.String({ minLength: 1 }),
  /** name → value text, in the same form as `context.variables`. */
  variables: Type.Record(Type.String(), Type.String()),
});
export type Scenario = Static<typeof ScenarioSchema>;

export const ThreadSchema = Type.Object({
  version: Type.Literal(THREAD_VERSION),
  /** uuid, stable across renames. */
  id: Id,
  title: Type.String(),
  model: ModelConfigSchema,
  context: Type.Object({
    systemPrompt: Type.String(),
    tools: Type.Array(ToolSchema),
    /**
     * Template variables: name → value as text (a text variable's text, a JSON variable's JSON
     * text, a file variable's path relative to the workspace). Names match VARIABLE_NAME_PATTERN.
     */
    variables: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** The type of each variable that is not plain text (absent = `text`). */
    variableTypes: Type.Optional(Type.Record(Type.String(), literals('text', 'json', 'file'))),
    /**
     * Named variable sets (LLM Space's `variableVariants`): each overrides some of `variables`
     * for a run. [eval] reuses them as dataset rows.
     */
    scenarios: Type.Optional(Type.Array(ScenarioSchema)),
    /** The scenario picked for the next run (a `scenarios[].name`), absent = the plain variables. */
    scenario: Type.Optional(Type.String()),
    messages: Type.Array(MessageSchema),
    /** Working folders offered to MCP servers as roots (absolute paths). */
    roots: Type.Optional(Type.Array(Type.String())),
  }),
  settings: Type.Optional(Type.Object({
    /** Auto-run tools (ReAct) instead of stopping at each tool call. */
    autoRunTools: Type.Optional(Type.Boolean()),
    maxTurns: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Let ReAct run tools marked destructive without stopping. */
    allowDestructive: Type.Optional(Type.Boolean()),
    /**
     * Stop at each MCP sampling request (sampling/createMessage) for the user to approve, edit
     * or reject before the model runs — the human in the loop the MCP spec asks clients for.
     */
    reviewSampling: Type.Optional(Type.Boolean()),
    /**
     * The thread's working directory for built-in tools and `current_working_directory`:
     * absolute, or relative to the workspace. Absent = `<home>/work/<threadId>`
     * (shared/thread/working-directory.ts).
     */
    cwd: Type.Optional(Type.String({ minLength: 1 })),
    /**
     * Built-in tools (by name: write, edit, apply_patch, bash, web_fetch) that ReAct runs without
     * stopping for approval in this thread.
     */
    allowTools: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /**
     * Names of the skills enabled for this thread (folders with a SKILL.md, found by the host:
     * main/core/skills/discover.ts); the `skill` tool loads them and `available_skills` lists them.
     */
    skills: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    /**
     * Send every text as written: no place of this thread is rendered as a template
     * (docs/architecture.md#templates). Set on threads the host builds from text that is not
     * the user's template, e.g. a judge's thread holding a case's output (main/core/eval/judge.ts).
     */
    literal: Type.Optional(Type.Boolean()),
  })),
  runRefs: Type.Array(RunRefSchema),
  /** Set on a branch ("Branch from here"): the point of the source thread it starts from. */
  branchOf: Type.Optional(BranchOfSchema),
  /** Manual evaluations of this thread's runs (./evaluation.ts). */
  evaluations: Type.Optional(Type.Array(EvaluationSchema)),
  /** Reusable rubrics for those evaluations. */
  rubrics: Type.Optional(Type.Array(RubricSchema)),
});
export type Thread = Static<typeof ThreadSchema>;
