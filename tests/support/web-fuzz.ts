/**
 * Generators for the web host fuzz test (tests/integration/web/web-host.fuzz.test.ts): raw
 * HTTP requests (any target, any headers), WebSocket text frames, and params for every host
 * method, plus the sanitiser that keeps generated params from starting anything on the real
 * machine, and a WebSocket client that waits for each answer.
 */
import fc from 'fast-check';
import WebSocket from 'ws';
import { HOST_METHOD_NAMES } from '../../shared/protocol/contract/host-methods';
import { WS_PROTOCOL, tokenProtocol } from '../../shared/protocol/web-session';

/** Where generated params may point: nothing that runs or reaches anything. */
export interface Sandbox {
  /** A command that does not exist (spawning it fails at once). */
  command: string;
  /** A file a config import may read. */
  file: string;
}

/** Keys whose values could start a process or reach the network; replaced or dropped. */
const DROPPED = new Set(['args', 'env', 'cwd', 'headers']);

/**
 * `v` with every `command` set to the sandbox's missing command, every `url` / `baseUrl` to a
 * closed local port, every `file` to the sandbox file, and `args`/`env`/`cwd`/`headers` removed,
 * at any depth. Keys such as `__proto__` stay own data properties.
 */
export function sanitize(v: unknown, sb: Sandbox): unknown {
  if (Array.isArray(v)) return v.map((x) => sanitize(x, sb));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (DROPPED.has(k)) continue;
    const value = k === 'command' ? sb.command : k === 'url' || k === 'baseUrl' ? 'http://127.0.0.1:9/' : k === 'file' ? sb.file : sanitize(x, sb);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const json = fc.jsonValue({ maxDepth: 3 });

/** What the host has named so far, by kind (thread ids, workspace paths, run ids, node ids, other strings). */
export type Known = (kind: 'thread' | 'path' | 'run' | 'node' | 'any') => string[];

/** Params for any method, in three kinds: any JSON; the methods' param names with any values; and the same names, mostly well typed. */
export function paramsArb(known: Known): fc.Arbitrary<unknown> {
  const knownOf = (kind: Parameters<Known>[0]) => fc.constant(null).map(() => known(kind)).chain((k) => (k.length ? fc.constantFrom(...k) : fc.string()));
  const odd = fc.constantFrom('', '..', '../escape.json', '/etc/passwd', 'a/../../b', 'NaN', '\u0000', 'x'.repeat(5000), '__proto__', 'constructor');
  const strOf = (kind: Parameters<Known>[0]) => fc.oneof({ weight: 4, arbitrary: knownOf(kind) }, { weight: 2, arbitrary: fc.string({ maxLength: 30 }) }, { weight: 1, arbitrary: odd });
  const str = strOf('any');
  const any = fc.oneof(json, str, fc.double(), fc.constantFrom(-1, 0, 1, 2 ** 53, 1e308));
  const patch = fc.record(
    {
      op: fc.oneof(fc.constantFrom('add', 'replace', 'remove'), fc.string()),
      path: fc.array(fc.oneof(fc.constantFrom('title', 'context', 'systemPrompt', 'messages', 'tools', 'model', 'params', 'content', 'text', 'id', 'runRefs'), fc.nat(3), fc.string()), { maxLength: 5 }),
      value: any,
    },
    { requiredKeys: ['op', 'path'] },
  );
  const typed: Record<string, fc.Arbitrary<unknown>> = {
    path: strOf('path'),
    title: str,
    folder: strOf('path'),
    toFolder: strOf('path'),
    threadId: strOf('thread'),
    runId: strOf('run'),
    nodeId: strOf('node'),
    name: str,
    server: str,
    id: str,
    editId: str,
    api: fc.oneof(fc.constantFrom('openai-chat', 'openai-responses', 'anthropic', 'scripted'), str),
    apiKey: str,
    baseUrl: str,
    file: str,
    mode: fc.oneof(fc.constantFrom('step', 'react', 'tool'), str),
    baseVersion: fc.oneof(fc.nat(20), fc.double()),
    count: fc.oneof(fc.nat(50), fc.double()),
    maxTurns: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.double()),
    toolCallIds: fc.array(strOf('node'), { maxLength: 3 }),
    patches: fc.array(patch, { maxLength: 3 }),
    value: any,
    thread: fc.oneof(json, fc.record({ title: str, context: json, model: json, runRefs: json }, { requiredKeys: [] })),
    entry: fc.oneof(json, fc.record({ command: fc.constant('x'), url: fc.constant('x'), type: fc.constantFrom('stdio', 'http', 'sse', 'x'), disabled: fc.boolean() }, { requiredKeys: [] })),
  };
  return fc.oneof(
    json,
    fc.dictionary(fc.constantFrom(...Object.keys(typed)), any, { maxKeys: 6 }),
    { weight: 3, arbitrary: fc.record(typed, { requiredKeys: [] }) },
    fc.constant(undefined),
  );
}

/** A WebSocket text frame: any text, any JSON, or a request-shaped object with odd parts. */
export function frameArb(params: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const id = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.constantFrom(0.5, -0, Number.MAX_SAFE_INTEGER), fc.nat());
  const method = fc.oneof(fc.constantFrom(...HOST_METHOD_NAMES), fc.string(), json);
  const request = fc.record({ id, method, params }, { requiredKeys: [] }).map((r) => JSON.stringify(r));
  return fc.oneof(fc.string(), fc.string({ unit: 'binary' }), json.map((j) => JSON.stringify(j)), request, fc.constantFrom('null', '42', '"x"', '[]', '{not json', '{"id":1e400,"method":"workspace.list"}', ''));
}

/** The answer a frame must get: its id (a request), or a `bad_request` refusal. */
export function expectedAnswer(frame: string): { id: number } | { refused: true } {
  let msg: unknown;
  try {
    msg = JSON.parse(frame);
  } catch {
    return { refused: true };
  }
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return { refused: true };
  const { id, method } = msg as { id?: unknown; method?: unknown };
  return typeof id === 'number' && Number.isFinite(id) && typeof method === 'string' ? { id } : { refused: true };
}

const HEADER_NAME = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/);
const HEADER_VALUE = fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[\r\n]/g, ''));

/** A raw HTTP/1.1 request to the host on `port` with `token`: any method, target and headers, upgrades included. */
export function rawRequestArb(port: number, token: string): fc.Arbitrary<string> {
  const self = `127.0.0.1:${port}`;
  const target = fc.oneof(
    fc.constantFrom('/', '//', '//[', 'http://[', '*', '/%', '/%c0%ae%c0%ae/x', '/ws', '/api/session', '/api/x', `/?token=${token}`, '/?token=bad', '/..%2f..%2fetc/passwd', '/assets/../../x', `http://${self}/`),
    fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((s) => s.replace(/[\r\n]/g, '')),
    fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `/${s}`),
    fc.webPath().map((p) => p || '/'),
  );
  const headers = fc.record(
    {
      Host: fc.oneof(fc.constantFrom(self, `localhost:${port}`, `evil.example:${port}`, '', '0.0.0.0'), HEADER_VALUE),
      Origin: fc.oneof(fc.constantFrom(`http://${self}`, 'http://evil.example', 'null', `https://${self}`), HEADER_VALUE),
      Authorization: fc.oneof(fc.constantFrom(`Bearer ${token}`, 'Bearer wrong', 'Bearer'), HEADER_VALUE),
      Cookie: fc.oneof(fc.constant(`stepwise_token=${token}`), HEADER_VALUE),
      Upgrade: fc.constantFrom('websocket', 'h2c', ''),
      'Sec-WebSocket-Key': fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', 'x'),
      'Sec-WebSocket-Version': fc.constantFrom('13', '8', 'x'),
      'Sec-WebSocket-Protocol': fc.oneof(fc.constant(`${WS_PROTOCOL}, ${tokenProtocol(token)}`), fc.constant(tokenProtocol('bad')), HEADER_VALUE),
    },
    { requiredKeys: [] },
  );
  const extra = fc.array(fc.tuple(HEADER_NAME, HEADER_VALUE), { maxLength: 3 });
  const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'CONNECT', 'BREW');
  return fc.tuple(method, target, headers, extra).map(([m, t, h, x]) => {
    const upgrade = h.Upgrade !== undefined;
    const lines = [`${m} ${t} HTTP/1.1`, ...Object.entries(h).map(([k, v]) => `${k}: ${v}`), ...x.map(([k, v]) => `${k}: ${v}`), `Connection: ${upgrade ? 'Upgrade' : 'close'}`];
    return `${lines.join('\r\n')}\r\n\r\n`;
  });
}

/** A page's WebSocket that answers pushes with acks and hands out each answer in turn. */
export async function fuzzSocket(port: number, token: string) {
  const origin = `http://127.0.0.1:${port}`;
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, [WS_PROTOCOL, tokenProtocol(token)], {
    // The bearer header too (a WebSocket takes either), so the same fuzz also reaches a host that only knew that one.
    headers: { origin, authorization: `Bearer ${token}` },
    maxPayload: 256 * 1024 * 1024,
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const answers: { id: unknown; result?: unknown; error?: { message?: unknown; code?: unknown } }[] = [];
  let wake: (() => void) | undefined;
  // Acks carry an id no generator makes (below 2^52, halves are exact), so their answers are told apart.
  const ACK_ID = 2 ** 52 - 0.5;
  ws.on('message', (d) => {
    const msg = JSON.parse(String(d));
    if (msg.push) {
      ws.send(JSON.stringify({ id: ACK_ID, method: 'stream.ack', params: { count: 1 } }));
      return;
    }
    if (msg.id === ACK_ID) return; // an ack's answer
    answers.push(msg);
    wake?.();
  });
  ws.on('close', () => wake?.());
  /** Send `frame` and wait (at most `ms`) for the next answer; throws at once if the socket closes. */
  const exchange = async (frame: string, ms = 20_000) => {
    answers.length = 0;
    if (ws.readyState !== ws.OPEN) throw new Error(`the WebSocket is closed (the host is gone?) before ${frame.slice(0, 300)}`);
    ws.send(frame);
    const deadline = Date.now() + ms;
    while (!answers.length) {
      if (ws.readyState !== ws.OPEN) throw new Error(`the WebSocket closed before answering ${frame.slice(0, 300)}`);
      if (Date.now() > deadline) throw new Error(`no answer in ${ms} ms to ${frame.slice(0, 300)}`);
      await new Promise<void>((r) => {
        wake = r;
        setTimeout(r, 50);
      });
    }
    return answers.shift()!;
  };
  return { ws, exchange, close: () => ws.close() };
}
