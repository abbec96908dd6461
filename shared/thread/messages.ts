/**
 * The messages of a thread (docs/architecture.md#the-thread-document): user and assistant
 * messages, their content parts (text, thinking, images, documents, MCP resources, provider-run
 * tool activity) and the tool calls an assistant message makes, with their outputs. TypeBox
 * schemas; `Static<>` gives the TypeScript types.
 */
import { Type, type Static } from '@sinclair/typebox';
import { UsageSchema } from '../protocol/nodes';
import { literals } from '../protocol/contract/define';

/** A non-empty id (of a message, a tool call, a run, a thread). */
export const IdSchema = Type.String({ minLength: 1 });
const Id = IdSchema;

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
  /**
   * The user typed or edited this result's text (the playground's result editor): its text parts
   * are templates, like a user message's. A result a tool run produced has no `typed` and is sent
   * as written (docs/architecture.md#templates).
   */
  typed: Type.Optional(Type.Boolean()),
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
