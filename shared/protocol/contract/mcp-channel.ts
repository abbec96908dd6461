/**
 * Every message between a runner, the host and the mcp-host, once, by name
 * (docs/architecture.md#mcp-channel). Each side checks what it receives against the union of
 * the messages it may receive; the message types are derived from these entries.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { ToolOutputSchema } from '../../thread/messages';
import { McpLogEntrySchema, McpLogFilterSchema, McpServerInfoSchema, McpToolInfoSchema } from './host-methods';
import { literals, method, unionOf, type MessageOf, type MethodTypes } from './define';
import { WireErrorSchema } from './errors';
import { MCP_HOST_RESOURCE_METHODS } from './mcp-resources';

const CallId = T.String({ minLength: 1, maxLength: 200 });
const RunId = T.String({ minLength: 1, maxLength: 200 });
const Strings = T.Record(T.String(), T.String());

/**
 * Servers bundled with Stepwise, run inside the mcp-host (settings/mcp.json
 * `{ "type": "bundled", "server": <name> }`, a Stepwise extension of the common format):
 * `everything` is @modelcontextprotocol/server-everything, the example threads' server.
 */
export const BUNDLED_MCP_SERVERS = ['everything'] as const;
/** The name of a server bundled with Stepwise. */
export type BundledMcpServer = (typeof BUNDLED_MCP_SERVERS)[number];

/** One configured MCP server after `$ENV` expansion (settings/mcp.json, `mcpServers.<name>`). */
export const McpServerConfigSchema = T.Union([
  T.Object({
    transport: T.Literal('stdio'),
    command: T.String({ minLength: 1 }),
    args: T.Array(T.String()),
    env: Strings,
    cwd: T.Optional(T.String()),
    /** Per-call timeout in ms, reset by each progress notification. Default 60 000. */
    timeoutMs: T.Optional(T.Number({ exclusiveMinimum: 0 })),
  }),
  T.Object({
    transport: literals('http', 'sse'),
    url: T.String({ minLength: 1 }),
    headers: Strings,
    timeoutMs: T.Optional(T.Number({ exclusiveMinimum: 0 })),
    /** OAuth client settings; without `clientId` the client registers itself (RFC 7591). */
    oauth: T.Optional(T.Object({ clientId: T.Optional(T.String({ minLength: 1 })), clientSecret: T.Optional(T.String()), scope: T.Optional(T.String()) })),
  }),
  /** A server bundled with Stepwise, connected in memory inside the mcp-host (no process, no stdin). */
  T.Object({
    transport: T.Literal('bundled'),
    server: T.Union(BUNDLED_MCP_SERVERS.map((name) => T.Literal(name))),
    timeoutMs: T.Optional(T.Number({ exclusiveMinimum: 0 })),
  }),
]);
export type McpServerConfig = Static<typeof McpServerConfigSchema>;

export { McpLogEntrySchema, McpLogFilterSchema };
export type McpLogEntry = Static<typeof McpLogEntrySchema>;

/**
 * A server's stored OAuth credentials: the registered client (RFC 7591 response) and the
 * tokens (RFC 6749 §5.1), as the SDK's client auth saves them. Kept by the host, encrypted
 * where the OS offers a keychain.
 */
export const McpOAuthCredentialsSchema = T.Object({
  client: T.Optional(T.Record(T.String(), T.Unknown())),
  tokens: T.Optional(T.Record(T.String(), T.Unknown())),
});
export type McpOAuthCredentials = Static<typeof McpOAuthCredentialsSchema>;

export type McpLogFilter = Static<typeof McpLogFilterSchema>;

/** Runner → mcp-host messages, by type. */
export const RUNNER_TO_MCP = {
  /** Call one tool; `roots` are the thread's roots (answered on `roots/list`). */
  call: T.Object({
    type: T.Literal('call'),
    callId: CallId,
    server: T.String({ minLength: 1 }),
    tool: T.String({ minLength: 1 }),
    arguments: T.Record(T.String(), T.Unknown()),
    roots: T.Optional(T.Array(T.String())),
    timeoutMs: T.Optional(T.Number({ exclusiveMinimum: 0 })),
  }),
  cancel: T.Object({ type: T.Literal('cancel'), callId: CallId, reason: T.Optional(T.String()) }),
  /** The runner's answer to a server request (sampling, elicitation) forwarded during a call. */
  server_request_result: T.Object({
    type: T.Literal('server_request_result'),
    requestId: T.String({ minLength: 1 }),
    result: T.Optional(T.Unknown()),
    error: T.Optional(T.Object({ message: T.String(), code: T.Optional(T.Number()) })),
  }),
};
export const RunnerToMcpSchema = unionOf(RUNNER_TO_MCP);
export type RunnerToMcp = MessageOf<typeof RUNNER_TO_MCP>;

/** mcp-host → runner messages, by type. */
export const MCP_TO_RUNNER = {
  /** Brokered transport: the first message on a new channel, saying the mcp-host serves it. */
  ready: T.Object({ type: T.Literal('ready') }),
  progress: T.Object({
    type: T.Literal('progress'),
    callId: CallId,
    progress: T.Number(),
    total: T.Optional(T.Number()),
    message: T.Optional(T.String()),
  }),
  log: T.Object({ type: T.Literal('log'), callId: CallId, level: T.String(), logger: T.Optional(T.String()), data: T.Unknown() }),
  /** A server request during a call: `params` as the server sent them (CreateMessage / Elicit). */
  server_request: T.Object({
    type: T.Literal('server_request'),
    callId: CallId,
    requestId: T.String({ minLength: 1 }),
    kind: literals('sampling', 'elicitation'),
    params: T.Record(T.String(), T.Unknown()),
  }),
  /** The call's end; failures come back as `isError` output. */
  result: T.Object({
    type: T.Literal('result'),
    callId: CallId,
    output: ToolOutputSchema,
    mcpLog: T.Array(McpLogEntrySchema),
    /** How `output.structuredContent` breaks the tool's `outputSchema`, one line per problem (absent or empty: it conforms). */
    outputProblems: T.Optional(T.Array(T.String())),
  }),
};
export const McpToRunnerSchema = unionOf(MCP_TO_RUNNER);
export type McpToRunner = MessageOf<typeof MCP_TO_RUNNER>;

/** Host → mcp-host requests (UI and CLI), answered by a `response`. */
export const MCP_HOST_METHODS = {
  configure: method(
    T.Object({
      servers: T.Record(T.String(), McpServerConfigSchema),
      notice: T.Optional(T.String()),
      connect: T.Optional(T.Boolean()),
      /** OAuth: where the authorization server sends the browser back, and the stored credentials by server. */
      oauth: T.Optional(T.Object({ redirectUrl: T.Optional(T.String()), credentials: T.Record(T.String(), McpOAuthCredentialsSchema) })),
    }),
    T.Object({ ok: T.Literal(true) }),
    'Replace the servers; `notice` (mcp.json invalid, last valid servers used) is logged on every call; `connect`: connect new servers now, in the background (their state is pushed as `server_status`).',
  ),
  servers: method(T.Object({}), T.Array(McpServerInfoSchema), 'The servers and their status.'),
  probe: method(
    T.Object({ timeoutMs: T.Integer({ minimum: 1, maximum: 120_000 }) }),
    T.Array(McpServerInfoSchema),
    'Connect every server (in parallel) and answer their status after at most `timeoutMs` ms (servers still connecting say `connecting`).',
  ),
  tools: method(T.Object({ server: T.String({ minLength: 1 }) }), T.Array(McpToolInfoSchema), 'A server’s tools.'),
  test: method(
    T.Object({ server: T.String({ minLength: 1 }) }),
    T.Object({ ok: T.Boolean(), message: T.String(), stderr: T.Optional(T.String()) }),
    'Connect and list tools, with a diagnosis on failure.',
  ),
  authorize: method(
    T.Object({ server: T.String({ minLength: 1 }) }),
    McpServerInfoSchema,
    'Sign in to a remote server again: forget its tokens and start the OAuth flow (its steps are pushed as `server_status`).',
  ),
  authCallback: method(
    T.Object({ state: T.String({ minLength: 1, maxLength: 500 }), code: T.Optional(T.String({ maxLength: 4000 })), error: T.Optional(T.String({ maxLength: 500 })) }),
    McpServerInfoSchema,
    'The authorization server sent the browser back (`code`, or `error`): exchange the code for tokens and connect the server whose flow `state` names.',
  ),
  setRoots: method(
    T.Object({ server: T.String({ minLength: 1 }), roots: T.Array(T.String({ minLength: 1 }), { maxItems: 100 }) }),
    McpServerInfoSchema,
    'Make `roots` the server’s roots and, on a live connection, send `notifications/roots/list_changed`.',
  ),
  serverLog: method(
    T.Object({ server: T.String({ minLength: 1 }), filter: T.Optional(McpLogFilterSchema) }),
    T.Object({ stderr: T.String(), messages: T.Array(McpLogEntrySchema) }),
    'Recent stderr of a stdio server and its protocol log (every message in and out, the last 500), newest last, filtered by `filter`.',
  ),
  ...MCP_HOST_RESOURCE_METHODS,
};
export type McpHostMethods = MethodTypes<typeof MCP_HOST_METHODS>;
export type McpHostMethod = keyof McpHostMethods;

const McpHostMethodName = T.Unsafe<McpHostMethod>(T.Union(Object.keys(MCP_HOST_METHODS).map((k) => T.Literal(k))));

/** Host → mcp-host messages, by type. */
export const HOST_TO_MCP_HOST = {
  request: T.Object({ type: T.Literal('request'), id: T.Integer(), method: McpHostMethodName, params: T.Unknown() }),
  /** Relay transport: a runner's message, wrapped. */
  runner: T.Object({ type: T.Literal('runner'), runId: RunId, msg: RunnerToMcpSchema }),
  /** Brokered transport: the transferred `ports[0]` is the mcp-host's end of run `runId`'s channel. */
  attach_port: T.Object({ type: T.Literal('attach_port'), runId: RunId }),
  /** The run ended: cancel its calls in flight (and close its port, if brokered). */
  run_ended: T.Object({ type: T.Literal('run_ended'), runId: RunId }),
};
export const HostToMcpHostSchema = unionOf(HOST_TO_MCP_HOST);
export type HostToMcpHost = MessageOf<typeof HOST_TO_MCP_HOST>;

/** mcp-host → host messages, by type. */
export const MCP_HOST_TO_HOST = {
  response: T.Object({
    type: T.Literal('response'),
    id: T.Integer(),
    result: T.Optional(T.Unknown()),
    /** The one error encoding (errors.ts): `bad_request`, `unknown_method`, `not_found`, `connect_failed`, `mcp_error`, `internal`. */
    error: T.Optional(WireErrorSchema),
  }),
  runner: T.Object({ type: T.Literal('runner'), runId: RunId, msg: McpToRunnerSchema }),
  /** A server's tool list changed (`notifications/tools/list_changed`). */
  tools_changed: T.Object({ type: T.Literal('tools_changed'), server: T.String() }),
  /** A subscribed resource changed (`notifications/resources/updated`); read it again to see how. */
  resource_updated: T.Object({ type: T.Literal('resource_updated'), server: T.String(), uri: T.String() }),
  /** A server's connection status changed (connecting, connected, error with its reason, disconnected). */
  server_status: T.Object({ type: T.Literal('server_status'), server: McpServerInfoSchema }),
  /** A server's OAuth credentials changed (registered client, new or refreshed tokens): the host stores them. */
  auth_saved: T.Object({ type: T.Literal('auth_saved'), server: T.String(), credentials: McpOAuthCredentialsSchema }),
  /** One message of a server's protocol log, as it happens. */
  server_log: T.Object({ type: T.Literal('server_log'), server: T.String(), entry: McpLogEntrySchema }),
  /** The PIDs of the stdio servers running now (the host ends them if the mcp-host is killed). */
  server_pids: T.Object({ type: T.Literal('server_pids'), pids: T.Array(T.Integer({ minimum: 1 })) }),
  ready: T.Object({ type: T.Literal('ready') }),
};
export const McpHostToHostSchema = unionOf(MCP_HOST_TO_HOST);
export type McpHostToHost = MessageOf<typeof MCP_HOST_TO_HOST>;

/** Brokered transport control, runner → host on the `mcp` channel of the process link. */
export const RUNNER_TO_HOST_MCP_CONTROL = {
  /** Ask for a port to the mcp-host (before the first call, and after the mcp-host restarted). */
  port_request: T.Object({ type: T.Literal('port_request') }),
};
export const RunnerToHostMcpControlSchema = unionOf(RUNNER_TO_HOST_MCP_CONTROL);
export type RunnerToHostMcpControl = MessageOf<typeof RUNNER_TO_HOST_MCP_CONTROL>;

/** Brokered transport control, host → runner on the `mcp` channel of the process link. */
export const HOST_TO_RUNNER_MCP_CONTROL = {
  /** The transferred `ports[0]` is the run's end of a channel to mcp-host generation `epoch`. */
  port: T.Object({ type: T.Literal('port'), epoch: T.Integer() }),
  /** The mcp-host could not be started; calls waiting for a port fail with `message`. */
  port_unavailable: T.Object({ type: T.Literal('port_unavailable'), message: T.String() }),
  /** mcp-host generation `epoch` exited; its ports are dead and calls in flight on them are lost. */
  port_lost: T.Object({ type: T.Literal('port_lost'), epoch: T.Integer(), message: T.String() }),
};
export const HostToRunnerMcpControlSchema = unionOf(HOST_TO_RUNNER_MCP_CONTROL);
export type HostToRunnerMcpControl = MessageOf<typeof HOST_TO_RUNNER_MCP_CONTROL>;
