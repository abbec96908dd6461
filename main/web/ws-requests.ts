/**
 * One client's requests on the web host's WebSocket: each text frame is parsed as
 * `{ id, method, params }` and answered `{ id, result }` or `{ id, error: { message, code } }`.
 * Every text frame gets an answer and none throws: a frame that is not such a request (not
 * JSON, not an object, no finite numeric id, no method) is answered `bad_request` with
 * `id: null` (or its id, when that is usable). Binary frames are not part of the protocol and
 * are ignored.
 */
import type { WebSocket } from 'ws';
import { toWireError } from '../../shared/protocol/contract/errors';

/** A frame read as a request, or the answer refusing it. */
export type ParsedFrame = { ok: true; id: number; method: string; params: unknown } | { ok: false; answer: { id: number | null; error: { message: string; code: 'bad_request' } } };

const refuse = (id: number | null, message: string): ParsedFrame => ({ ok: false, answer: { id, error: { message, code: 'bad_request' } } });

/** Read one text frame as a request. Never throws. */
export function parseFrame(text: string): ParsedFrame {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return refuse(null, 'Malformed request: not JSON');
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return refuse(null, 'Malformed request: a request is a JSON object { id, method, params }');
  const { id, method, params } = msg as { id?: unknown; method?: unknown; params?: unknown };
  // A non-finite id (1e400 parses as Infinity) could not be sent back: JSON writes it as null.
  const usable = typeof id === 'number' && Number.isFinite(id);
  if (!usable || typeof method !== 'string') return refuse(usable ? id : null, 'A request needs a finite numeric id and a method name');
  return { ok: true, id, method, params: params ?? {} };
}

/** What answers a client's requests: the host core's connection. */
export type Handle = (method: string, params: unknown) => Promise<unknown>;

/** Answer every text frame `ws` receives with `handle`; binary frames are ignored. */
export function serveRequests(ws: WebSocket, handle: Handle): void {
  const send = (frame: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const req = parseFrame(data.toString());
    if (!req.ok) return send(req.answer);
    const fail = (err: unknown) => send({ id: req.id, error: toWireError(err) });
    // Called inside a promise so that even a handler that throws at once gets an answer; the
    // last catch answers a result that cannot be serialised.
    Promise.resolve()
      .then(() => handle(req.method, req.params))
      .then((result) => send({ id: req.id, result: result ?? null }), fail)
      .catch(fail);
  });
}
