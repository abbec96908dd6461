/**
 * MCP resources, resource templates, prompts and completions as they cross the host ↔ mcp-host
 * and client ↔ host boundaries (docs/architecture.md#mcp-channel). Shapes follow the MCP
 * schema (modelcontextprotocol.io/specification, 2025-06-18: `Resource`, `ResourceTemplate`,
 * `ResourceContents`, `Prompt`, `PromptMessage`, `CompleteResult`); fields Stepwise does not
 * use (`_meta`, `annotations`, `icons`) may be present and are passed through unchecked.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { literals, method } from './define';

const NonEmpty = T.String({ minLength: 1 });
/** An opaque pagination cursor, as the server returned it in `nextCursor`. */
const Cursor = T.Optional(T.String({ maxLength: 10_000 }));

/** One resource a server lists (`resources/list`). `size` in bytes, when the server knows it. */
export const McpResourceSchema = T.Object({
  uri: T.String(),
  name: T.String(),
  title: T.Optional(T.String()),
  description: T.Optional(T.String()),
  mimeType: T.Optional(T.String()),
  size: T.Optional(T.Number()),
});
export type McpResource = Static<typeof McpResourceSchema>;

/** One resource template (`resources/templates/list`): `uriTemplate` is an RFC 6570 URI template. */
export const McpResourceTemplateSchema = T.Object({
  uriTemplate: T.String(),
  name: T.String(),
  title: T.Optional(T.String()),
  description: T.Optional(T.String()),
  mimeType: T.Optional(T.String()),
});
export type McpResourceTemplate = Static<typeof McpResourceTemplateSchema>;

/** The contents of a read resource: `text`, or `blob` (base64). */
export const McpResourceContentsSchema = T.Object({
  uri: T.String(),
  mimeType: T.Optional(T.String()),
  text: T.Optional(T.String()),
  blob: T.Optional(T.String()),
});
export type McpResourceContents = Static<typeof McpResourceContentsSchema>;

/** One argument of a prompt. */
export const McpPromptArgumentSchema = T.Object({
  name: T.String(),
  title: T.Optional(T.String()),
  description: T.Optional(T.String()),
  required: T.Optional(T.Boolean()),
});

/** One prompt a server lists (`prompts/list`). */
export const McpPromptSchema = T.Object({
  name: T.String(),
  title: T.Optional(T.String()),
  description: T.Optional(T.String()),
  arguments: T.Optional(T.Array(McpPromptArgumentSchema)),
});
export type McpPrompt = Static<typeof McpPromptSchema>;

/** One message of a got prompt: `content` is one MCP content block (text, image, audio, resource, resource_link). */
export const McpPromptMessageSchema = T.Object({
  role: literals('user', 'assistant'),
  content: T.Unsafe<{ type: string; [field: string]: unknown }>(T.Object({ type: T.String() }, { additionalProperties: true })),
});
export type McpPromptMessage = Static<typeof McpPromptMessageSchema>;

/** What `completion/complete` completes: a prompt's argument or a resource template's variable. */
export const McpCompleteRefSchema = T.Union([
  T.Object({ type: T.Literal('ref/prompt'), name: NonEmpty }),
  T.Object({ type: T.Literal('ref/resource'), uri: NonEmpty }),
]);
export type McpCompleteRef = Static<typeof McpCompleteRefSchema>;

/** Params and results of the resource/prompt methods, shared by the host ↔ mcp-host and client ↔ host tables. */
export const MCP_RESOURCE_SHAPES = {
  resources: {
    params: T.Object({ server: NonEmpty, cursor: Cursor }),
    result: T.Object({ resources: T.Array(McpResourceSchema), nextCursor: T.Optional(T.String()) }),
  },
  templates: {
    params: T.Object({ server: NonEmpty, cursor: Cursor }),
    result: T.Object({ resourceTemplates: T.Array(McpResourceTemplateSchema), nextCursor: T.Optional(T.String()) }),
  },
  readResource: {
    params: T.Object({ server: NonEmpty, uri: NonEmpty }),
    result: T.Object({ contents: T.Array(McpResourceContentsSchema) }),
  },
  subscribe: {
    params: T.Object({ server: NonEmpty, uri: NonEmpty, subscribe: T.Boolean() }),
    result: T.Object({ ok: T.Literal(true) }),
  },
  complete: {
    params: T.Object({
      server: NonEmpty,
      ref: McpCompleteRefSchema,
      argument: T.Object({ name: NonEmpty, value: T.String() }),
      /** Values of the other arguments already filled, which may narrow the completion. */
      context: T.Optional(T.Record(T.String(), T.String())),
    }),
    result: T.Object({ values: T.Array(T.String()), total: T.Optional(T.Number()), hasMore: T.Optional(T.Boolean()) }),
  },
  prompts: {
    params: T.Object({ server: NonEmpty, cursor: Cursor }),
    result: T.Object({ prompts: T.Array(McpPromptSchema), nextCursor: T.Optional(T.String()) }),
  },
  getPrompt: {
    params: T.Object({ server: NonEmpty, name: NonEmpty, arguments: T.Optional(T.Record(T.String(), T.String())) }),
    result: T.Object({ description: T.Optional(T.String()), messages: T.Array(McpPromptMessageSchema) }),
  },
};

/** The resource/prompt methods of the host ↔ mcp-host table (mcp-channel.ts). */
export const MCP_HOST_RESOURCE_METHODS = {
  resources: method(MCP_RESOURCE_SHAPES.resources.params, MCP_RESOURCE_SHAPES.resources.result, 'One page of a server’s resources (`resources/list`, from `cursor`).'),
  templates: method(MCP_RESOURCE_SHAPES.templates.params, MCP_RESOURCE_SHAPES.templates.result, 'One page of a server’s resource templates (`resources/templates/list`).'),
  readResource: method(MCP_RESOURCE_SHAPES.readResource.params, MCP_RESOURCE_SHAPES.readResource.result, 'Read one resource (`resources/read`).'),
  subscribe: method(
    MCP_RESOURCE_SHAPES.subscribe.params,
    MCP_RESOURCE_SHAPES.subscribe.result,
    'Subscribe to (or, with `subscribe: false`, unsubscribe from) one resource’s updates; each update is pushed as `resource_updated`.',
  ),
  complete: method(MCP_RESOURCE_SHAPES.complete.params, MCP_RESOURCE_SHAPES.complete.result, 'Complete a prompt argument or template variable (`completion/complete`).'),
  prompts: method(MCP_RESOURCE_SHAPES.prompts.params, MCP_RESOURCE_SHAPES.prompts.result, 'One page of a server’s prompts (`prompts/list`).'),
  getPrompt: method(MCP_RESOURCE_SHAPES.getPrompt.params, MCP_RESOURCE_SHAPES.getPrompt.result, 'Get a prompt with its arguments filled (`prompts/get`).'),
};

/** The mcp-host methods on resources, templates, prompts and completions. */
export type McpResourceMethod = keyof typeof MCP_HOST_RESOURCE_METHODS;

/** The same methods in the client ↔ host table (host-methods.ts), as `mcp.<name>`. */
export const HOST_MCP_RESOURCE_METHODS = {
  'mcp.resources': MCP_HOST_RESOURCE_METHODS.resources,
  'mcp.templates': MCP_HOST_RESOURCE_METHODS.templates,
  'mcp.readResource': MCP_HOST_RESOURCE_METHODS.readResource,
  'mcp.subscribe': method(
    MCP_RESOURCE_SHAPES.subscribe.params,
    MCP_RESOURCE_SHAPES.subscribe.result,
    'Subscribe to (or, with `subscribe: false`, unsubscribe from) one resource; each update is pushed to every client as `mcp_resource_updated`.',
  ),
  'mcp.complete': MCP_HOST_RESOURCE_METHODS.complete,
  'mcp.prompts': MCP_HOST_RESOURCE_METHODS.prompts,
  'mcp.getPrompt': MCP_HOST_RESOURCE_METHODS.getPrompt,
};
