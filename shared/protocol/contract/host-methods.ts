/**
 * Every host method, once: name → `{ params, result, doc }` (docs/architecture.md#host-api).
 * A client sends `{ id, method, params }` over the desktop IPC or the web host's WebSocket; the
 * host checks `params` against the entry before a handler runs, and answers `{ id, result }` or
 * `{ id, error: { message, code } }` (see ./errors.ts). Adding a method is one entry here plus
 * one handler in main/core/handlers/.
 */
import { Type as T } from '@sinclair/typebox';
import { BranchOfSchema, RunModeSchema, RunRefSchema, ThreadSchema } from '../../thread/schema';
import { ExecNodeSchema, NodeStatusSchema } from '../nodes';
import { PatchSchema, YjsBytesSchema } from '../envelopes';
import { literals, method, type MethodTypes } from './define';
import { HOST_MCP_RESOURCE_METHODS } from './mcp-resources';
import { ModelPriceSchema } from './runner-channel';
import { EVAL_METHODS } from './eval-methods';
import { FrozenRendersSchema } from '../../template/frozen';
import { SkillInfoSchema } from '../../skills/skill-info';

const NonEmpty = T.String({ minLength: 1 });
const Path = T.String({ minLength: 1, maxLength: 4096 });
const None = T.Object({});
const Ok = T.Object({ ok: T.Literal(true) });

/** What a window joining a thread's Yjs document gets (docs/architecture.md#multi-window-editing). */
const YjsSyncSchema = T.Object({
  /** The Yjs update that brings the window's document up to the host's (base64). */
  update: YjsBytesSchema,
  /** The host's state vector (base64): the window sends what the host lacks (its edits made offline). */
  stateVector: YjsBytesSchema,
  /** The host document's id: updates made on another one are refused with `stale_doc`. */
  docId: T.String(),
  version: T.Integer({ minimum: 0 }),
});

/** One entry of the workspace tree; `path` is workspace-relative with '/' separators. */
export const WorkspaceEntrySchema = T.Object({
  path: T.String(),
  kind: literals('folder', 'thread'),
  title: T.String(),
  /** Thread id, for threads. */
  id: T.Optional(T.String()),
  /** Load error of a malformed file, shown in the tree instead of hiding the file. */
  error: T.Optional(T.String()),
  /** A branch's source (its thread's `branchOf`): a thread's branches are the entries naming it. */
  branchOf: T.Optional(BranchOfSchema),
});

/** Where a time-travel run starts: run `runId`'s model call `fromCall` (1-based). */
export const FromRunSchema = T.Object({ runId: NonEmpty, fromCall: T.Integer({ minimum: 1 }) });

/**
 * The raw request and stream of one LLM node, as a run record keeps it. With `requestBase`,
 * `request` holds only what the request adds to the earlier one: read it with `requestAt`.
 */
export const StoredLlmRecordSchema = T.Object({
  runId: T.String(),
  nodeId: T.String(),
  api: T.String(),
  request: T.Unknown(),
  /**
   * How `request` extends the run's previous request: a `RequestBase`
   * (shared/protocol/request-delta.ts, docs/architecture.md#stored-requests). Not checked here: a damaged one must not make the whole
   * run unreadable; `requestAt` refuses it and the call's raw request shows why.
   */
  requestBase: T.Optional(T.Unknown()),
  events: T.Array(T.Object({ t: T.Number(), data: T.Unknown() })),
});

/** A stored run (runs/<threadId>/<runId>.json). Times are epoch ms. */
export const RunRecordSchema = T.Object({
  runId: T.String(),
  threadId: T.String(),
  mode: RunModeSchema,
  status: NodeStatusSchema,
  startedAt: T.Number(),
  endedAt: T.Optional(T.Number()),
  /** When the host last heard from the run's process; an orphaned record is closed at this time. */
  lastEventAt: T.Optional(T.Number()),
  nodes: T.Array(ExecNodeSchema),
  records: T.Array(StoredLlmRecordSchema),
  /** Messages the run added (for restore). */
  messages: T.Optional(T.Array(T.Unknown())),
  /** Tool results a tool step filled into existing tool calls (for restore). */
  toolOutputs: T.Optional(T.Array(T.Unknown())),
  /** Ids of the thread's messages when the run started. */
  baseMessageIds: T.Optional(T.Array(T.String())),
  /** The run's result is not put on its thread (`stepwise run --dry-run`). */
  dryRun: T.Optional(T.Boolean()),
  /** The rendered text of every templated place the run sent (shared/template/frozen.ts). */
  renders: T.Optional(FrozenRendersSchema),
  /** The scenario whose variables the run used. */
  scenario: T.Optional(T.String()),
  /** A time-travel run: the run and model call it re-ran from (docs/architecture.md#branches-and-time-travel). */
  fromRun: T.Optional(FromRunSchema),
  /** The first run of this run's turn, when this run continues one (docs/architecture.md#turns). */
  turnOf: T.Optional(T.String()),
  /**
   * Set by the journal repair on a run the host died during: its result goes onto the thread
   * the next time the thread is opened; the flag is then dropped.
   */
  resultPending: T.Optional(T.Boolean()),
});

/** A provider as Settings shows it; `keyHint` is masked (`sk-…abcd`) or names its variable. */
export const ProviderInfoSchema = T.Object({
  id: T.String(),
  api: T.String(),
  /** The connection profile's name, when it has one ("OpenAI work"). */
  name: T.Optional(T.String()),
  /** The preset it was made from. */
  preset: T.Optional(T.String()),
  baseUrl: T.Optional(T.String()),
  keyHint: T.Optional(T.String()),
  detected: T.Optional(T.Boolean()),
  builtin: T.Optional(T.Boolean()),
  saved: T.Optional(T.Boolean()),
  prices: T.Optional(T.Record(T.String(), ModelPriceSchema)),
});

/** One JSON-RPC message as seen on the wire between the mcp-host and a server; `t` epoch ms. */
export const McpLogEntrySchema = T.Object({
  t: T.Number(),
  /** `out`: client → server; `in`: server → client. */
  dir: literals('out', 'in'),
  /** Serialised size in UTF-8 bytes. */
  size: T.Number(),
  method: T.Optional(T.String()),
  id: T.Optional(T.Union([T.String(), T.Number()])),
  /** The message; over the size cap, a string cut at the cap ending in a truncation marker. */
  body: T.Unknown(),
  truncated: T.Optional(T.Boolean()),
});

/** Filters of a server's protocol log (all optional; together they all apply). */
export const McpLogFilterSchema = T.Object({
  dir: T.Optional(literals('in', 'out')),
  /** Exact method, or a prefix ending in `/` (`tools/`); responses match their request's method. */
  method: T.Optional(T.String({ maxLength: 200 })),
  /** Only JSON-RPC error responses. */
  errors: T.Optional(T.Boolean()),
});
/**
 * Where a remote server's OAuth sign-in stands (MCP spec 2025-06-18, Authorization): the step
 * it is at, and whether that step runs, waits for the person (`authorization`: `url` is the
 * authorization server's page to open), failed (`error` says why) or is done.
 */
export const McpAuthStatusSchema = T.Object({
  step: literals('discovery', 'registration', 'authorization', 'token', 'refresh', 'connected'),
  state: literals('running', 'waiting', 'failed', 'done'),
  url: T.Optional(T.String()),
  error: T.Optional(T.String()),
});

export const McpServerInfoSchema = T.Object({
  name: T.String(),
  transport: literals('stdio', 'http', 'sse', 'bundled'),
  status: literals('disconnected', 'connecting', 'connected', 'error'),
  error: T.Optional(T.String()),
  /** OAuth sign-in of a remote server, once one was needed. */
  auth: T.Optional(McpAuthStatusSchema),
  /** From `initialize` (last connection): the server's `serverInfo`, `capabilities` and `instructions`. */
  serverInfo: T.Optional(T.Object({ name: T.String(), version: T.String(), title: T.Optional(T.String()) })),
  capabilities: T.Optional(T.Record(T.String(), T.Unknown())),
  instructions: T.Optional(T.String()),
  /** The roots announced to this server (`roots/list`), absolute folder paths. */
  roots: T.Optional(T.Array(T.String())),
});

/** A tool as an MCP server lists it (`tools/list`, MCP spec 2025-06-18). */
export const McpToolInfoSchema = T.Object({
  name: T.String(),
  title: T.Optional(T.String()),
  description: T.Optional(T.String()),
  inputSchema: T.Record(T.String(), T.Unknown()),
  outputSchema: T.Optional(T.Record(T.String(), T.Unknown())),
  annotations: T.Optional(T.Record(T.String(), T.Unknown())),
});

const McpTestResult = T.Object({ ok: T.Boolean(), message: T.String(), stderr: T.Optional(T.String()) });

/** The host API. */
export const HOST_METHODS = {
  'workspace.list': method(None, T.Array(WorkspaceEntrySchema), 'The workspace tree.'),
  'workspace.create': method(
    T.Object({ folder: T.Optional(T.String()), title: NonEmpty, thread: T.Optional(T.Record(T.String(), T.Unknown())) }),
    WorkspaceEntrySchema,
    'Create a thread file in `folder` from `title` (and a partial thread).',
  ),
  'workspace.import': method(
    T.Object({
      /** The document's text (JSON): a Stepwise thread, an LLM Space thread file, or an OpenAI / Anthropic request body. */
      text: T.String({ minLength: 1 }),
      /** The file name it came from (a title when the document has none); absent for pasted text. */
      name: T.Optional(T.String({ maxLength: 255 })),
      folder: T.Optional(T.String()),
    }),
    T.Object({
      entry: WorkspaceEntrySchema,
      /** The format detected (ThreadFormat) and its human name. */
      format: T.String(),
      formatName: T.String(),
      /** Run records written with it (LLM Space run history). */
      runs: T.Integer({ minimum: 0 }),
      /** What could not be kept, each `pointer: message` (JSON pointer in the input). */
      notKept: T.Array(T.String()),
    }),
    'Import a document as a new thread in `folder`: detect its format, convert it, write its run records; say what could not be kept.',
  ),
  'workspace.createFolder': method(T.Object({ path: Path }), WorkspaceEntrySchema, 'Create a folder.'),
  'workspace.rename': method(T.Object({ path: Path, title: NonEmpty }), WorkspaceEntrySchema, 'Rename a thread (its file and title) or a folder.'),
  'workspace.move': method(T.Object({ path: Path, toFolder: T.Optional(T.String()) }), WorkspaceEntrySchema, 'Move a thread or folder into another folder.'),
  'workspace.duplicate': method(T.Object({ path: Path }), WorkspaceEntrySchema, 'Copy a thread under a new id.'),
  'workspace.delete': method(T.Object({ path: Path }), Ok, 'Delete a thread file or folder.'),
  'thread.open': method(
    T.Object({
      path: Path,
      /** Join the thread's Yjs document too (a window): the answer's `yjs`, and `thread_update` pushes instead of `thread_patch`. */
      yjs: T.Optional(T.Boolean()),
    }),
    T.Object({
      thread: ThreadSchema,
      version: T.Integer({ minimum: 0 }),
      path: T.String(),
      running: T.Optional(T.String()),
      /** How this client's own edits are labelled in `thread_patch` (to skip its echoes). */
      origin: T.Optional(T.String()),
      /** With `yjs`: the document's whole state (what `thread.sync` answers for an empty state vector). */
      yjs: T.Optional(YjsSyncSchema),
    }),
    "Open a thread: its document and the store's version; subscribes the client to its patches.",
  ),
  'thread.render': method(
    T.Object({
      threadId: NonEmpty,
      /** One place (`systemPrompt`, `message:<id>`, `tool:<toolCallId>`); all templated places when absent. */
      place: T.Optional(T.String({ minLength: 1 })),
      scenario: T.Optional(T.String()),
      fresh: T.Optional(T.Boolean()),
    }),
    T.Object({
      /** Each templated place as the next run would send it; `frozen` = the previous run's text, reused. */
      places: T.Array(T.Object({ place: T.String(), text: T.Array(T.String()), frozen: T.Boolean() })),
      scenario: T.Optional(T.String()),
      /** The first template error: its place, 1-based line and column, the included file it is in. */
      error: T.Optional(T.Object({
        place: T.String(),
        message: T.String(),
        line: T.Optional(T.Integer()),
        column: T.Optional(T.Integer()),
        file: T.Optional(T.String()),
      })),
    }),
    'The rendered text of a thread’s places (preview), or the first template error.',
  ),
  'thread.branch': method(
    T.Object({
      threadId: NonEmpty,
      /** Cut after this message of the open thread… */
      messageId: T.Optional(NonEmpty),
      /** …or at node `nodeId` of the thread's run `runId` (the conversation as it was there). */
      runId: T.Optional(NonEmpty),
      nodeId: T.Optional(NonEmpty),
    }),
    WorkspaceEntrySchema,
    'Branch an open thread: a new thread file beside it holding everything up to the given message or run node, with `branchOf` naming the point.',
  ),
  'thread.close': method(T.Object({ threadId: NonEmpty }), Ok, 'Stop receiving a thread’s patches; released when no client holds it.'),
  'thread.edit': method(
    T.Object({
      threadId: NonEmpty,
      baseVersion: T.Integer({ minimum: 0 }),
      patches: T.Array(PatchSchema),
      /** Makes a resent edit idempotent: the same id answers the version it got the first time. */
      editId: T.Optional(T.String({ minLength: 1, maxLength: 100 })),
    }),
    T.Object({ version: T.Integer({ minimum: 0 }) }),
    'Apply Immer patches made at `baseVersion`; a stale base answers `version_mismatch`.',
  ),
  'thread.sync': method(
    T.Object({
      threadId: NonEmpty,
      /** The window's Yjs state vector (base64; empty for none): the answer holds what it lacks. */
      stateVector: YjsBytesSchema,
    }),
YjsSyncSchema,
    "Join an open thread's Yjs document (docs/architecture.md#multi-window-editing): what the window's state vector lacks.",
  ),
  'thread.update': method(
    T.Object({
      threadId: NonEmpty,
      /** The host document it was made on (`thread.sync`'s `docId`). */
      docId: NonEmpty,
      update: YjsBytesSchema,
    }),
    T.Object({ version: T.Integer({ minimum: 0 }) }),
    "Apply a window's Yjs update, relayed to the thread's other windows; answered once it is on disk. Refused and reverted (a host transaction) while a run runs (`read_only`) or when the thread would be invalid (`invalid_edit`).",
  ),
  'run.start': method(
    T.Object({
      threadId: NonEmpty,
      mode: RunModeSchema,
      toolCallIds: T.Optional(T.Array(T.String())),
      maxTurns: T.Optional(T.Integer({ minimum: 1 })),
      /** The scenario to use instead of the thread's picked one ('' = none). */
      scenario: T.Optional(T.String()),
      /** Render every place anew instead of reusing the previous run's frozen renders. */
      fresh: T.Optional(T.Boolean()),
      /**
       * Time travel: re-run this earlier run of the thread from its model call `fromCall`. The
       * thread must still start with the messages that run started from; when the new run ends,
       * the messages after those are replaced by the new run's (one patch).
       */
      fromRun: T.Optional(FromRunSchema),
    }),
    T.Object({ runId: T.String() }),
    'Start a run in its own runner process.',
  ),
  'run.cancel': method(T.Object({ runId: NonEmpty }), Ok, 'Cancel a live run (killed after a grace period).'),
  'run.input': method(
    T.Object({ runId: NonEmpty, nodeId: NonEmpty, value: T.Unknown() }),
    Ok,
    'Answer a node waiting in `awaiting_input`: an MCP elicitation (accept with content, decline or cancel), a sampling review, or an `ask_user_question` (`{kind:"answers", answers:{[id]: text}}`).',
  ),
  'run.list': method(T.Object({ threadId: NonEmpty }), T.Array(RunRefSchema), 'A thread’s runs, stored and live, oldest first.'),
  'run.get': method(T.Object({ threadId: NonEmpty, runId: NonEmpty }), RunRecordSchema, 'One run record, live or stored.'),
  'run.delete': method(T.Object({ threadId: NonEmpty, runId: NonEmpty }), Ok, 'Delete a stored run.'),
  'stream.subscribe': method(
    T.Object({ threadId: T.Optional(T.String()) }),
    Ok,
    'Live runs’ trees and node snapshots, then their live envelopes (docs/architecture.md#sequence-and-snapshots).',
  ),
  'stream.snapshot': method(T.Object({ runId: NonEmpty, nodeId: NonEmpty }), Ok, 'Ask for a node snapshot (after a gap).'),
  'stream.ack': method(T.Object({ count: T.Integer({ minimum: 0 }) }), Ok, 'Backpressure: the client has processed `count` pushes.'),
  'settings.providers': method(None, T.Array(ProviderInfoSchema), 'Configured, built-in and detected providers, keys masked.'),
  'settings.app': method(None, T.Object({ home: T.String(), workspaceDir: T.String() }), 'Where this host keeps its data.'),
  'settings.providersFile': method(
    None,
    T.Object({ file: T.String(), error: T.Optional(T.String()) }),
    'Where settings/providers.json is and, when it cannot be read, why (line and column).',
  ),
  'settings.saveProvider': method(
    T.Object({
      id: NonEmpty,
      api: T.Optional(T.String()),
      baseUrl: T.Optional(T.String()),
      apiKey: T.Optional(T.String()),
      /** The profile's name as shown ("OpenAI work"). */
      name: T.Optional(T.String({ maxLength: 100 })),
      /** The preset it was made from (shared/protocol/provider-presets.ts). */
      preset: T.Optional(T.String({ maxLength: 64 })),
    }),
    T.Array(ProviderInfoSchema),
    'Add or update a provider; without `api` an existing provider keeps its API.',
  ),
  'settings.testProvider': method(
    T.Object({ id: NonEmpty }),
    T.Object({ ok: T.Boolean(), message: T.String(), models: T.Optional(T.Integer({ minimum: 0 })) }),
    'Connect to a provider with its key and list its models (`GET /models`); says what failed. The key never leaves the host.',
  ),
  'settings.skills': method(None, T.Array(SkillInfoSchema), 'Skills found in <home>/skills, ~/.claude/skills, ~/.agents/skills and ~/.codex/skills (folders holding a SKILL.md), in that order.'),
  'settings.providerModels': method(T.Object({ id: NonEmpty }), T.Array(T.String()), 'The model ids a provider lists on `GET /models`, sorted.'),
  'settings.removeProvider': method(T.Object({ id: NonEmpty }), T.Array(ProviderInfoSchema), 'Remove an added provider (or reset a built-in one).'),
  'mcp.servers': method(None, T.Array(McpServerInfoSchema), 'The configured MCP servers and their status.'),
  'mcp.tools': method(T.Object({ server: NonEmpty }), T.Array(McpToolInfoSchema), 'A server’s tools (`tools/list`).'),
  'mcp.test': method(T.Object({ server: NonEmpty }), McpTestResult, 'Connect to a server and list its tools, with a diagnosis on failure.'),
  'mcp.serverLog': method(
    T.Object({ server: NonEmpty, filter: T.Optional(McpLogFilterSchema) }),
    T.Object({ stderr: T.String(), messages: T.Array(McpLogEntrySchema) }),
    'A server’s protocol log (every JSON-RPC message in and out, the last 500, newest last), filtered, and a stdio server’s recent stderr; new entries arrive as `mcp_server_log`.',
  ),
  'mcp.setRoots': method(
    T.Object({ server: NonEmpty, roots: T.Array(NonEmpty, { maxItems: 100 }) }),
    McpServerInfoSchema,
    'Make `roots` (absolute folders) the roots announced to a server; a live connection gets `notifications/roots/list_changed`.',
  ),
  'mcp.authorize': method(T.Object({ server: NonEmpty }), McpServerInfoSchema, 'Sign in to a remote server again (OAuth); the steps arrive as `mcp_server_status`.'),
  'mcp.saveServer': method(
    T.Object({ name: NonEmpty, entry: T.Record(T.String(), T.Unknown()) }),
    T.Array(McpServerInfoSchema),
    'Add or replace a server in settings/mcp.json (`entry` in the mcpServers format).',
  ),
  'mcp.removeServer': method(T.Object({ name: NonEmpty }), T.Array(McpServerInfoSchema), 'Remove a server from settings/mcp.json.'),
  'mcp.import': method(
    T.Object({ file: NonEmpty }),
    T.Object({ format: literals('claude-desktop', 'claude-code', 'cursor', 'vscode'), added: T.Array(T.String()), notes: T.Array(T.String()) }),
    'Add the servers of a Claude Desktop, Claude Code, Cursor or VS Code config file (a path on the host), expanding its variables as that client does.',
  ),
  ...HOST_MCP_RESOURCE_METHODS,
  ...EVAL_METHODS,
};

/** Method name → `{ params, result }` types. */
export type HostMethods = MethodTypes<typeof HOST_METHODS>;
export type HostMethod = keyof HostMethods;
export type HostParams<M extends HostMethod> = HostMethods[M]['params'];
export type HostResult<M extends HostMethod> = HostMethods[M]['result'];

/** Every method name, in table order (the desktop IPC allow-list). */
export const HOST_METHOD_NAMES = Object.freeze(Object.keys(HOST_METHODS)) as readonly HostMethod[];

/** True for a name in the table. */
export function isHostMethod(name: unknown): name is HostMethod {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(HOST_METHODS, name);
}
