/**
 * The model a thread runs (docs/architecture.md#the-thread-document): provider, model id and
 * parameters (sampling, reasoning, response format, tool choice…), and the script of the
 * offline `scripted` model. TypeBox schemas; `Static<>` gives the TypeScript types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literals } from '../protocol/contract/define';

/** One response of the `scripted` model (docs/architecture.md#providers). */
export const ScriptedResponseSchema = Type.Object({
  /** Regex tested against the last message's text; the first unused match is used. */
  when: Type.Optional(Type.String()),
  thinking: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  toolCalls: Type.Optional(Type.Array(Type.Object({ name: Type.String(), arguments: Type.Record(Type.String(), Type.Unknown()) }))),
  /** End the call with this error message (after streaming what precedes it). */
  error: Type.Optional(Type.String()),
});
export type ScriptedResponse = Static<typeof ScriptedResponseSchema>;

/** Reasoning effort levels across the APIs (OpenAI: none…max; Anthropic: low…max). */
export const ReasoningEffortSchema = literals('none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max');
export type ReasoningEffort = Static<typeof ReasoningEffortSchema>;

/** `params.toolChoice`: a mode, or one function tool by name (the Responses API's own shape). */
export const ToolChoiceSchema = Type.Union([
  literals('auto', 'none', 'required'),
  Type.Object({ type: Type.Literal('function'), name: Type.String({ minLength: 1 }) }),
]);
export type ToolChoice = Static<typeof ToolChoiceSchema>;

export const ModelParamsSchema = Type.Object({
  temperature: Type.Optional(Type.Number()),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
  reasoning: Type.Optional(Type.Object({
    /**
     * Reasoning effort: OpenAI Chat `reasoning_effort`, Responses `reasoning.effort`, Anthropic
     * `output_config.effort`. Which values an API takes: shared/thread/model-controls.ts.
     */
    effort: Type.Optional(ReasoningEffortSchema),
    /** Anthropic extended thinking budget (`thinking: {type:'enabled', budget_tokens}`), ≥ 1024 to be on. */
    budgetTokens: Type.Optional(Type.Integer({ minimum: 0 })),
    /** Anthropic adaptive thinking (`thinking: {type:'adaptive'}`): the model decides; wins over budgetTokens. */
    adaptive: Type.Optional(Type.Boolean()),
  })),
  /**
   * Response format, in the Chat Completions `response_format` shape: `{type:'text'}`,
   * `{type:'json_object'}` or `{type:'json_schema', json_schema:{name, schema, strict?}}` (the
   * Responses `text.format` shape `{type:'json_schema', name, schema}` is read too). Sent as chat
   * `response_format`, Responses `text.format`, Anthropic `output_config.format`.
   */
  responseFormat: Type.Optional(Type.Unknown()),
  /** Which tool the model must call: `auto`, `none`, `required` (any tool), or one named function tool. */
  toolChoice: Type.Optional(ToolChoiceSchema),
  /** Let the model call several tools in one turn (OpenAI `parallel_tool_calls`; false = Anthropic `disable_parallel_tool_use`). */
  parallelToolCalls: Type.Optional(Type.Boolean()),
  /** Stop sequences: Chat `stop`, Anthropic `stop_sequences` (the Responses API has none). */
  stopSequences: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Sampling seed (Chat Completions `seed`). */
  seed: Type.Optional(Type.Integer()),
  /** Nucleus sampling, 0–1 (`top_p`). */
  topP: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  /** Scripted model only: streaming rate. Default 40. */
  tokensPerSecond: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
  /** Extra provider-specific body fields, merged into the request. */
  extra: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type ModelParams = Static<typeof ModelParamsSchema>;

export const ModelConfigSchema = Type.Object({
  /** A provider id from settings/providers.json, or a built-in: openai, anthropic, scripted, replay. */
  provider: Type.String({ minLength: 1 }),
  id: Type.String(),
  params: ModelParamsSchema,
  script: Type.Optional(Type.Array(ScriptedResponseSchema)),
  /** Replay model only: which recorded LLM node to play back. */
  replay: Type.Optional(Type.Object({ runId: Type.String(), nodeId: Type.Optional(Type.String()) })),
});
export type ModelConfig = Static<typeof ModelConfigSchema>;
