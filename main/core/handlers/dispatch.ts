/**
 * The one way a host request is answered (docs/architecture.md#host-api): the method must be in
 * the contract's table (`unknown_method`), its params must match the entry's schema
 * (`bad_request`, "<method>: <path>: <problem>"), then its handler runs. Whatever the handler
 * throws leaves as a HostError with a code (`toWireError`), the one error encoding every
 * transport sends as `{ message, code }`.
 */
import { HOST_METHODS, isHostMethod, type HostMethod, type HostParams } from '../../../shared/protocol/contract/host-methods';
import { problems } from '../../../shared/protocol/contract/define';
import { toWireError } from '../../../shared/protocol/contract/errors';
import { ThreadFileError } from '../../../shared/thread/thread-text';
import { HostError } from '../errors';
import type { ClientState, HostContext } from '../host-context';
import type { Handler, HandlerTable } from './types';

/** The longest method name quoted back in an `unknown_method` error. */
const MAX_SHOWN_NAME = 80;

/**
 * Checks one request against the table: throws HostError `unknown_method` for a name not in it
 * and `bad_request` naming the method, the JSON pointer and the problem for params that do not
 * match its entry. Absent params are `{}`.
 */
export function checkRequest(method: unknown, params: unknown): { method: HostMethod; params: HostParams<HostMethod> } {
  if (typeof method !== 'string') throw new HostError('bad_request', `a request's method must be a string, not ${kindOf(method)}`);
  if (!isHostMethod(method)) throw new HostError('unknown_method', `${JSON.stringify(method.slice(0, MAX_SHOWN_NAME))} is not a host method`);
  const p = params === undefined ? {} : params;
  const found = problems(HOST_METHODS[method].params, p);
  if (found.length) throw new HostError('bad_request', `${method}: ${found.join('; ')}`);
  return { method, params: p as HostParams<HostMethod> };
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

/**
 * Answers one request of `client` with `handlers` (the full table in production): checked by
 * {@link checkRequest}, then handled. Rejects with a HostError whose `code` is the handler's
 * error's own code (`bad_thread_file` for a thread file that does not load), or `internal`. `clean` runs on every error first (the host core removes
 * absolute paths there).
 */
export async function dispatch(
  handlers: HandlerTable,
  ctx: HostContext,
  client: ClientState,
  method: unknown,
  params: unknown,
  clean: (err: unknown) => unknown = (e) => e,
): Promise<unknown> {
  try {
    const req = checkRequest(method, params);
    const handler = handlers[req.method] as Handler<HostMethod>;
    return await handler(ctx, client, req.params);
  } catch (err) {
    const cleaned = clean(err);
    if (cleaned instanceof HostError) throw cleaned;
    if (cleaned instanceof ThreadFileError) throw new HostError('bad_thread_file', cleaned.message);
    const wire = toWireError(cleaned);
    throw new HostError(wire.code, wire.message);
  }
}
