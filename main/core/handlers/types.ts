/**
 * The shape of a request handler (docs/architecture.md#host-api): one per host method, typed by
 * the method's entry in shared/protocol/contract/host-methods.ts. Params arrive already checked
 * against the entry's schema (./dispatch.ts), so a handler keeps only the checks a schema cannot
 * express (a thread is open, a run is running, …) and throws HostError for those.
 */
import type { HostMethod, HostParams, HostResult } from '../../../shared/protocol/host-api';
import type { ClientState, HostContext } from '../host-context';

/** Answers method `M` for `client`; rejects with a HostError (or any Error with a `code`). */
export type Handler<M extends HostMethod> = (ctx: HostContext, client: ClientState, params: HostParams<M>) => Promise<HostResult<M>>;

/** The methods named `<domain>.…`. */
export type DomainMethod<D extends string> = Extract<HostMethod, `${D}.${string}`>;

/** One handler for each method of a domain: a missing or unknown one is a compile error. */
export type DomainHandlers<D extends string> = { [M in DomainMethod<D>]: Handler<M> };

/** One handler for every host method. */
export type HandlerTable = { [M in HostMethod]: Handler<M> };
