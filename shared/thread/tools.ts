/**
 * The tools a thread offers the model (docs/architecture.md#the-thread-document): function
 * tools (with custom free-form tools), MCP tools, built-in tools and agent tools (another
 * thread run as a nested agent), and the rule for a typed tool name. TypeBox schemas;
 * `Static<>` gives the TypeScript types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { literals } from '../protocol/contract/define';

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
