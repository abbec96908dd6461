/** The host connection as React state: re-renders when the adapter reports a change. */
import { useCallback, useSyncExternalStore } from 'react';
import type { ConnectionStatus, HostServices } from './types';

const OPEN: ConnectionStatus = { state: 'open' };

/** The connection of `host` ({ state: 'open' } for adapters without a transport). */
export function useConnection(host: HostServices): ConnectionStatus {
  const subscribe = useCallback((cb: () => void) => host.onConnectionChange?.(cb) ?? (() => {}), [host]);
  const get = useCallback(() => host.connection?.() ?? OPEN, [host]);
  return useSyncExternalStore(subscribe, get, get);
}

/** Whether edits can reach the host now (the playground is editable only then). */
export function canEdit(status: ConnectionStatus): boolean {
  return status.state === 'open';
}
