/**
 * The check every process makes where a message arrives from another process: the message must
 * be one of the contract entries that side may receive (a table keyed by `type`, e.g.
 * `RUNNER_TO_MCP` in mcp-channel.ts). A message that is not is dropped — never a crash — with
 * one rate-limited log line naming its type and its first problem
 * (docs/architecture.md#mcp-channel).
 */
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Port } from '../runner';
import type { MessageOf, MessageTable } from './define';
import { LogWindow } from '../../log-window';

/** Options of {@link messageGate}. */
export interface GateOptions {
  /** Where the log lines go. Default `console.warn` (stderr in a Node process). */
  log?: (line: string) => void;
  /** At most one line per this many ms; the next line counts those left out. Default 10 000. */
  everyMs?: number;
  /** Clock (ms), for tests. Default `Date.now`. */
  now?: () => number;
}

/** Checks received messages against one table. */
export interface MessageGate<M> {
  /**
   * True (and `msg` narrowed) when `msg` is one of the table's messages; otherwise false, and
   * the drop is logged (rate-limited). `from` names the sender in the log line (e.g. a run id).
   */
  accept(msg: unknown, from?: string): msg is M;
  /** Messages dropped so far. */
  readonly dropped: number;
}

const MAX_LINE = 400;

/** A short description of a value that is not a message. */
function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v;
}

function quote(s: string): string {
  const q = JSON.stringify(s);
  return q.length > 60 ? `${q.slice(0, 57)}…"` : q;
}

/** The `type` literal of a table entry, or undefined when the entry is not a tagged object. */
function tagOf(schema: TSchema): unknown {
  if (!KindGuard.IsObject(schema)) return undefined;
  const t = schema.properties.type;
  return t && KindGuard.IsLiteral(t) ? t.const : undefined;
}

/**
 * The first problem of `value` against `schema` as `path: message` (undefined when valid). A
 * nested union of tagged messages (e.g. `runner.msg`) is followed into the member its `type`
 * names, so the problem is the member's own rather than "Expected union value".
 */
export function firstProblem(schema: TSchema, value: unknown, at = ''): string | undefined {
  const e = Value.Errors(schema, value).First();
  if (!e) return undefined;
  const path = at + e.path;
  if (KindGuard.IsUnion(e.schema) && e.value && typeof e.value === 'object') {
    const members = e.schema.anyOf;
    const tag = (e.value as { type?: unknown }).type;
    const member = members.find((m) => tagOf(m) !== undefined && tagOf(m) === tag);
    if (member) return firstProblem(member, e.value, path);
    if (members.every((m) => tagOf(m) !== undefined)) {
      return `${path}/type: ${typeof tag === 'string' ? `unknown type ${quote(tag)}` : 'missing or not a string'} (expected ${members.map((m) => String(tagOf(m))).join(', ')})`;
    }
  }
  return `${path || '/'}: ${e.message}`;
}

/**
 * Why `msg` is not one of `table`'s messages (undefined when it is): the entry is chosen by the
 * message's `type`, so the problem named is that entry's first.
 */
export function messageProblem(table: MessageTable, msg: unknown): string | undefined {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return `/: not an object (${kindOf(msg)})`;
  const type = (msg as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(table, type)) {
    const what = typeof type === 'string' ? `unknown type ${quote(type)}` : 'missing or not a string';
    return `/type: ${what} (expected ${Object.keys(table).join(', ')})`;
  }
  return firstProblem(table[type], msg);
}

/**
 * A gate for the messages `where` receives from one table. Valid messages pass untouched; the
 * first bad one is logged at once, later ones at most once per `everyMs`, each line saying how
 * many were dropped since the previous one.
 */
export function messageGate<T extends MessageTable>(where: string, table: T, opts: GateOptions = {}): MessageGate<MessageOf<T>> {
  const log = opts.log ?? ((line: string) => console.warn(line));
  const everyMs = opts.everyMs ?? 10_000;
  const now = opts.now ?? Date.now;
  let dropped = 0;
  const limit = new LogWindow(1, everyMs);
  return {
    get dropped() {
      return dropped;
    },
    accept(msg: unknown, from?: string): msg is MessageOf<T> {
      const problem = messageProblem(table, msg);
      if (problem === undefined) return true;
      dropped++;
      const { pass, heldBack } = limit.admit(now());
      if (!pass) return false;
      const type = msg && typeof msg === 'object' && typeof (msg as { type?: unknown }).type === 'string' ? quote((msg as { type: string }).type) : 'untyped';
      const more = heldBack ? ` (${heldBack} more dropped since the last line)` : '';
      // One line, whatever the message held: control characters (from hostile keys) are blanked.
      const line = `[${where}] dropped a malformed ${type} message${from ? ` from ${from}` : ''}: ${problem}${more}`.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ');
      log(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line);
      return false;
    },
  };
}

/**
 * `port` with every received message checked by `gate` (each message once, however many
 * listeners): listeners see only the messages it accepts.
 */
export function checkedPort<In, Out>(port: Port<unknown, Out>, gate: MessageGate<In>, from?: string): Port<In, Out> {
  const listeners = new Set<(m: In) => void>();
  let off: (() => void) | undefined;
  return {
    post: (m) => port.post(m),
    onMessage: (listener) => {
      listeners.add(listener);
      off ??= port.onMessage((m) => {
        if (!gate.accept(m, from)) return;
        for (const l of [...listeners]) l(m);
      });
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          off?.();
          off = undefined;
        }
      };
    },
  };
}
