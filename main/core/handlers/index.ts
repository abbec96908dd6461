/**
 * Every host method's handler, one table typed by the contract
 * (shared/protocol/contract/host-methods.ts): a method without a handler, or a handler without
 * a method, does not compile (and main/core/handlers/handlers.test.ts checks the same at run time).
 */
import type { HandlerTable } from './types';
import { workspaceHandlers } from './workspace';
import { threadHandlers } from './thread';
import { runHandlers } from './run';
import { streamHandlers } from './stream';
import { settingsHandlers } from './settings';
import { mcpHandlers } from './mcp';

export const HANDLERS: HandlerTable = {
  ...workspaceHandlers,
  ...threadHandlers,
  ...runHandlers,
  ...streamHandlers,
  ...settingsHandlers,
  ...mcpHandlers,
};

export { dispatch, checkRequest } from './dispatch';
export type { Handler, HandlerTable } from './types';
