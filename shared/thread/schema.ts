/**
 * The Thread document (docs/architecture.md#the-thread-document): one JSON file holding everything one experiment needs and
 * nothing derived. TypeBox schemas; `Static<>` gives the TypeScript types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { UsageSchema, NodeStatusSchema } from '../protocol/nodes';
import { literals } from '../protocol/contract/define';
import { EvaluationSchema, RubricSchema } from './evaluation';

/** Current schema version of the Thread document. Older versions are migrated on read. */
export const THREAD_VERSION = 1;

const Id = Type.String({ minLength: 1 });

/** Anthropic prompt caching on a block (`cache_control`, e.g. `{ type: "ephemeral", ttl: "1h" }`), sent back as written. */
const CacheControl = Type.Optional(Type.Record(Type.String(), Type.Unknown()));
export const TextPartSchema = Type.Object({ type: Type.Literal('text'), text: Type.String(), cacheControl: CacheControl });
export const ThinkingPartSchema = Type.Object({
  type: Type.Literal('thinking'),
  thinking: Type.String(),
  /** Anthropic's signature over the thinking block, sent back unchanged on the next turn. */
  signature: Type.Optional(Type.String()),
  /** Anthropic's redacted thinking: opaque `data`, shown as redacted. */
  redacted: Type.Optional(Type.Boolean()),
  data: Type.Optional(Type.String()),
});
/** How closely OpenAI looks at an image (`image_url.detail`); other APIs ignore it. */
const ImageDetail = Type.Optional(literals('auto', 'low', 'high'));
/** An image, base64 `data` without a data: prefix. */
export const ImagePartSchema = Type.Object({
  type: Type.Literal('image'),
  mimeType: Type.String(),
  data: Type.String(),
  detail: ImageDetail,
  cacheControl: CacheControl,
});
/**
 * An image the provider fetches from an http(s) `url` (user messages only): sent as a URL
 * (OpenAI `image_url`, Anthropic `source: { type: "url" }`), never downloaded by Stepwise.
 */
export const ImageUrlPartSchema = Type.Object({
  type: Type.Literal('image'),
  url: Type.String({ pattern: '^https?://' }),
  mimeType: Type.Optional(Type.String()),
  detail: ImageDetail,
  cacheControl: CacheControl,
});
/**
 * A document the model reads (Anthropic `document` block): a PDF as base64 (`base64`), a
 * document the provider fetches (`url`), or plain text (`text`). Sent to Anthropic as written,
 * with its title, context, citation setting and cache control.
 */
export const DocumentPartSchema = Type.Object({
  type: Type.Literal('document'),
  source: Type.Union([
    Type.Object({ type: Type.Literal('base64'), mediaType: Type.String(), data: Type.String() }),
    Type.Object({ type: Type.Literal('url'), url: Type.String({ pattern: '^https?://' }) }),
    Type.Object({ type: Type.Literal('text'), mediaType: Type.String(), data: Type.String() }),
  ]),
  title: Type.Optional(Type.String()),
  context: Type.Optional(Type.String()),
  /** Anthropic citations: `{ enabled: true }` lets the answer cite passages of this document. */
  citations: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
  cacheControl: CacheControl,
});
export type DocumentPart = Static<typeof DocumentPartSchema>;
export const AudioPartSchema = Type.Object({
  type: Type.Literal('audio'),
  mimeType: Type.String(),
  data: Type.String(),
});
/** An MCP resource link (a URI the server can read) or an embedded resource. */
export const ResourceLinkPartSchema = Type.Object({
  type: Type.Literal('resource_link'),
  uri: Type.String(),
  name: Type.Optional(Type.String()),
  title: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  mimeType: Type.Optional(Type.String()),
});
export const ResourcePartSchema = Type.Object({
  type: Type.Literal('resource'),
  resource: Type.Object({
    uri: Type.String(),
    mimeType: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    blob: Type.Optional(Type.String()),
  }),
});
/**
 * Tool activity the provider ran itself (Anthropic server tools: web search, web fetch, code
 * execution …, and the MCP connector's `mcp_tool_use` / `mcp_tool_result`). `block` is the
 * provider's content block exactly as received; it is sent back unchanged on the next turn, as
 * the API requires, and never run by Stepwise as a client tool call.
 * Shapes: @anthropic-ai/sdk `ServerToolUseBlock`, `WebSearchToolResultBlock`, … `BetaMCPToolUseBlock`.
 */
export const ServerToolPartSchema = Type.Object({
  type: Type.Literal('server_tool'),
  block: Type.Object({
    /** `server_tool_use`, `mcp_tool_use`, `web_search_tool_result`, `mcp_tool_result`, … */
    type: Type.String({ minLength: 1 }),
    /** The call's id (a `*_tool_use` block). */
    id: Type.Optional(Type.String()),
    /** The tool's name (a `*_tool_use` block): `web_search`, `code_execution`, an MCP tool name. */
    name: Type.Optional(Type.String()),
    /** The call's input (a `*_tool_use` block), as the provider streamed it. */
    input: Type.Optional(Type.Unknown()),
    /** The call a result answers (a `*_tool_result` block). */
    tool_use_id: Type.Optional(Type.String()),
  }),
});
export type TextPart = Static<typeof TextPartSchema>;
export type ServerToolPart = Static<typeof ServerToolPartSchema>;
export type ThinkingPart = Static<typeof ThinkingPartSchema>;
export type ImagePart = Static<typeof ImagePartSchema>;
export type ImageUrlPart = Static<typeof ImageUrlPartSchema>;

/** Content of a tool result: every MCP content kind is kept, nothing flattened. */
export const ToolResultPartSchema = Type.Union([
  TextPartSchema,
  ImagePartSchema,
  AudioPartSchema,
  ResourceLinkPartSchema,
  ResourcePartSchema,
]);
export type ToolResultPart = Static<typeof ToolResultPartSchema>;

export const ToolOutputSchema = Type.Object({
  content: Type.Array(ToolResultPartSchema),
  structuredContent: Type.Optional(Type.Unknown()),
  isError: Type.Boolean(),
});
export type ToolOutput = Static<typeof ToolOutputSchema>;

/** A tool call the model made; `output` is filled when the tool ran or the user typed a result. */
export const ToolCallSchema = Type.Object({
  id: Id,
  name: Type.String(),
  arguments: Type.Record(Type.String(), Type.Unknown()),
  /** The raw argument text as streamed, kept when it did not parse as a JSON object. */
  rawArguments: Type.Optional(Type.String()),
  /**
   * A call of a custom (free-form) tool (OpenAI `custom_tool_call`): its input is the text in
   * `rawArguments`, exactly as the model wrote it, and `arguments` is `{}`.
   */
  custom: Type.Optional(Type.Boolean()),
  output: Type.Optional(ToolOutputSchema),
});
export type ToolCall = Static<typeof ToolCallSchema>;

/**
 * A user message: text, images, and MCP resources attached to it (embedded, as read from a
 * server); providers send a resource's text as text and an image blob as an image
 * (agent-runner/providers/content.ts `userParts`).
 */
export const UserMessageSchema = Type.Object({
  id: Id,
  role: Type.Literal('user'),
  content: Type.Array(Type.Union([TextPartSchema, ImagePartSchema, ImageUrlPartSchema, DocumentPartSchema, ResourcePartSchema])),
});
export type UserMessage = Static<typeof UserMessageSchema>;

export const AssistantMessageSchema = Type.Object({
  id: Id,
  role: Type.Literal('assistant'),
  content: Type.Array(Type.Union([TextPartSchema, ThinkingPartSchema, ServerToolPartSchema])),
  toolCalls: Type.Optional(Type.Array(ToolCallSchema)),
  usage: Type.Optional(UsageSchema),
  timing: Type.Optional(Type.Object({ firstTokenMs: Type.Optional(Type.Number()), durationMs: Type.Optional(Type.Number()) })),
  stopReason: Type.Optional(Type.String()),
  /** Why the call failed, or the provider's explanation of a refusal (`stopReason` `content_filter`). */
  errorMessage: Type.Optional(Type.String()),
  /** The model that wrote it, `provider/id`. */
  model: Type.Optional(Type.String()),
});
export type AssistantMessage = Static<typeof AssistantMessageSchema>;
/** One part of an assistant message's content. */
export type AssistantPart = AssistantMessage['content'][number];

export const MessageSchema = Type.Union([UserMessageSchema, AssistantMessageSchema]);
export type Message = Static<typeof MessageSchema>;

const JsonSchemaObject = Type.Record(Type.String(), Type.Unknown());

/** MCP tool annotations (MCP spec 2025-06-18, ToolAnnotations). */
export const ToolAnnotationsSchema = Type.Object({
  title: Type.Optional(Type.String()),
  readOnlyHint: Type.Optional(Type.Boolean()),
  destructiveHint: Type.Optional(Type.Boolean()),
  idempotentHint: Type.Optional(Type.Boolean()),
  openWorldHint: Type.Optional(Type.Boolean()),
});

/**
 * A tool name the model APIs accept (OpenAI's and Anthropic's rule for function and tool names):
 * 1–64 letters, digits, "_" or "-". A loaded thread only needs a non-empty name (imported and
 * MCP tools may carry others); a name typed in the playground is held to this rule.
 */
export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Why `name` is not a tool name the model APIs accept, or null when it is. */
export function toolNameProblem(name: string): string | null {
  if (!name) return 'A tool needs a name.';
  if (TOOL_NAME_PATTERN.test(name)) return null;
  if (name.length > 64) return `A tool name has at most 64 characters (this one has ${name.length}).`;
  const bad = [...new Set(name.replace(/[A-Za-z0-9_-]/g, ''))].map((c) => (c === ' ' ? 'spaces' : `"${c}"`));
  return `A tool name may use letters, digits, "_" and "-" only, not ${bad.join(', ')}.`;
}

const ToolCommon = {
  /** Name the model sees (typed names: TOOL_NAME_PATTERN). */
  name: Type.String({ minLength: 1 }),
  description: Type.Optional(Type.String()),
  /** Stop ReAct mode at this tool and wait for the user. */
  requiresApproval: Type.Optional(Type.Boolean()),
};

/** The input format of a custom tool (openai `CustomToolInputFormat`): free text, or text a grammar accepts. */
export const CustomToolFormatSchema = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('grammar'), syntax: literals('lark', 'regex'), definition: Type.String() }),
]);

export const FunctionToolSchema = Type.Object({
  type: Type.Literal('function'),
  ...ToolCommon,
  /** JSON Schema of the arguments; ignored for a custom tool. */
  parameters: JsonSchemaObject,
  /**
   * Declares a custom (free-form) tool (OpenAI Responses `{type: 'custom'}`): the model writes
   * plain text as its input instead of JSON arguments; `format` constrains that text.
   */
  custom: Type.Optional(Type.Object({ format: Type.Optional(CustomToolFormatSchema) })),
  /** OpenAI structured outputs for the arguments (`function.strict`); sent to OpenAI APIs. */
  strict: Type.Optional(Type.Boolean()),
});
export const McpToolSchema = Type.Object({
  type: Type.Literal('mcp'),
  ...ToolCommon,
  /** Server name as configured in settings/mcp.json. */
  server: Type.String({ minLength: 1 }),
  /** The tool's name on that server. */
  toolName: Type.String({ minLength: 1 }),
  inputSchema: JsonSchemaObject,
  /** The JSON Schema the tool's `structuredContent` conforms to, as the server listed it. */
  outputSchema: Type.Optional(JsonSchemaObject),
  annotations: Type.Optional(ToolAnnotationsSchema),
});
export const BuiltinToolSchema = Type.Object({
  type: Type.Literal('builtin'),
  ...ToolCommon,
  parameters: Type.Optional(JsonSchemaObject),
  config: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
/** A tool backed by another thread file, run as a nested agent. */
export const AgentToolSchema = Type.Object({
  type: Type.Literal('agent'),
  ...ToolCommon,
  /** Path of the thread file, relative to the workspace. */
  threadPath: Type.String({ minLength: 1 }),
  parameters: Type.Optional(JsonSchemaObject),
});
export const ToolSchema = Type.Union([FunctionToolSchema, McpToolSchema, BuiltinToolSchema, AgentToolSchema]);
export type Tool = Static<typeof ToolSchema>;
export type FunctionTool = Static<typeof FunctionToolSchema>;
export type CustomToolFormat = Static<typeof CustomToolFormatSchema>;
export type McpTool = Static<typeof McpToolSchema>;
export type AgentTool = Static<typeof AgentToolSchema>;

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
