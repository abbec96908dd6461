/**
 * The one error encoding of every request/response channel (host API over IPC and WebSocket,
 * host ↔ mcp-host): `{ message, code }`. `message` is for a person; `code` is stable for code
 * (`bad_request`, `unknown_method`, `version_mismatch`, `not_found`, …). See
 * docs/architecture.md#host-api.
 */
import { Type as T, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export const WireErrorSchema = T.Object({ message: T.String(), code: T.String() });
/** An error as it travels between processes. */
export type WireError = Static<typeof WireErrorSchema>;

/** The code used when a thrown value carries none. */
export const INTERNAL = 'internal';

/**
 * A thrown value as a {@link WireError}: an error's own string `code` is kept, anything else is
 * `internal`. The message never carries a stack.
 */
export function toWireError(err: unknown): WireError {
  const code = err && typeof err === 'object' && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : INTERNAL;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : String(err);
  return { message, code };
}

/** Reads a received error field; a malformed one becomes an `internal` error saying so. */
export function fromWire(raw: unknown): WireError {
  if (Value.Check(WireErrorSchema, raw)) return raw;
  if (raw && typeof raw === 'object' && typeof (raw as { message?: unknown }).message === 'string') {
    return { message: (raw as { message: string }).message, code: INTERNAL };
  }
  return { message: 'the other side answered with a malformed error', code: INTERNAL };
}

/**
 * A request's outcome as one value, for a channel that cannot carry an error's code in a
 * rejection (Electron's `ipcRenderer.invoke` keeps only a rejection's message): the desktop IPC
 * resolves every `stepwise:invoke` with one of these.
 */
export const OutcomeSchema = T.Union([
  T.Object({ ok: T.Literal(true), result: T.Unknown() }),
  T.Object({ ok: T.Literal(false), error: WireErrorSchema }),
]);
export type Outcome = Static<typeof OutcomeSchema>;
