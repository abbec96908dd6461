/**
 * The one object through which the renderer reaches its host (docs/architecture.md#renderer). Components never ask
 * which host they run in; the adapters (desktop, web, viewer) implement this interface.
 */
import type { HostMethod, HostParams, HostResult, HostPush } from '../../../shared/protocol/host-api';

export interface HostServices {
  /** Send one request. Rejects with a {@link HostCallError} carrying the host's message and code. */
  call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>>;
  /**
   * Every push (envelopes and events) from now on, in arrival order. Leaving the loop (break,
   * throw) or aborting `signal` unsubscribes.
   */
  pushes(signal?: AbortSignal): AsyncIterable<HostPush>;
  /** True for the read-only viewer: no edits, no runs. */
  readonly presentational: boolean;
  /**
   * The connection to the host, for the header and the disconnected banner; adapters without
   * a transport are always `{ state: 'open' }`. The same object is returned until it changes.
   */
  connection?(): ConnectionStatus;
  /** Calls `listener` whenever {@link connection} changes; returns the unsubscribe. */
  onConnectionChange?(listener: () => void): () => void;
}

/**
 * - `connecting`: the first connection is being made.
 * - `open`: connected; edits are saved.
 * - `reconnecting`: the connection was lost; the adapter retries by itself and edits wait.
 * - `ended`: the host refused this page's token (it was restarted): nothing will reconnect.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'ended';

export interface ConnectionStatus {
  state: ConnectionState;
  /** While reconnecting: since when (epoch ms) nothing answers at the host's address at all. */
  unreachableSince?: number;
}

/**
 * A failed host request, as a renderer sees it: what failed (`message`), a machine code
 * (`version_mismatch`, `bad_response`, …; the host's WireError code, or the adapter's own for
 * a lost connection) and the method. Not the host's own HostError (main/core/errors.ts).
 */
export class HostCallError extends Error {
  constructor(
    message: string,
    readonly code?: string,
    readonly method?: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = 'HostCallError';
  }
}
