/**
 * The request/response contract between a client (renderer) and the host, the same over
 * Electron IPC and the web host's WebSocket (docs/architecture.md#host-api). Every type here is
 * derived from the one table in ./contract/host-methods.ts (methods), ./contract/host-pushes.ts
 * (pushes) and ./contract/errors.ts (the error encoding); this module is the import point.
 *
 * Requests are `{ id, method, params }`, answers `{ id, result }` or `{ id, error: WireError }`;
 * the host pushes envelopes and events as `{ push: HostPush }`.
 */
import type { Static } from '@sinclair/typebox';
import type { McpServerInfoSchema, McpToolInfoSchema, ProviderInfoSchema, RunRecordSchema, WorkspaceEntrySchema, HostMethod, HostParams } from './contract/host-methods';
import type { WireError } from './contract/errors';

export type { HostMethods, HostMethod, HostParams, HostResult } from './contract/host-methods';
export type { HostEvent, HostPush } from './contract/host-pushes';
export type { WireError } from './contract/errors';

/** One entry of the workspace tree; `path` is relative to the workspace, with '/' separators. */
export type WorkspaceEntry = Static<typeof WorkspaceEntrySchema>;
/** A stored run (runs/<threadId>/<runId>.json). */
export type RunRecord = Static<typeof RunRecordSchema>;
/** A provider as Settings shows it; `keyHint` is masked, never the whole key. */
export type ProviderInfo = Static<typeof ProviderInfoSchema>;
export type McpServerInfo = Static<typeof McpServerInfoSchema>;
/** A tool as an MCP server lists it. */
export type McpToolInfo = Static<typeof McpToolInfoSchema>;

/** One request on the wire. */
export interface HostRequest<M extends HostMethod = HostMethod> {
  id: number;
  method: M;
  params: HostParams<M>;
}
/** One answer on the wire: `result`, or `error` in the one encoding. */
export interface HostResponse {
  id: number;
  result?: unknown;
  error?: WireError;
}
