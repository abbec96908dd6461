/**
 * The renderer's side of the contract (docs/architecture.md#host-api): every answer and every
 * push an adapter receives is checked against shared/protocol/contract before the app sees it.
 * An answer that does not match its method's `result` schema fails the call with code
 * `bad_response`, naming the method and the problem; a push that matches no push schema is
 * dropped, with a console warning per push type at most every {@link CheckOptions.everyMs}.
 * Checks use TypeBox's `Value` (no code generation: the renderer's CSP forbids eval).
 */
import { HOST_METHODS, type HostMethod, type HostParams, type HostResult } from '../../../shared/protocol/contract/host-methods';
import { pushProblem, type HostPush } from '../../../shared/protocol/contract/host-pushes';
import { problems } from '../../../shared/protocol/contract/define';
import { LogWindow } from '../../../shared/log-window';
import { HostCallError, type HostServices } from './types';

export interface CheckOptions {
  /** Where drop warnings go. Default `console.warn`. */
  warn?: (line: string) => void;
  /** At most one warning per push type per this many ms (later ones count the drops). Default 10 000. */
  everyMs?: number;
  /** Clock in ms (tests). Default `Date.now`. */
  now?: () => number;
}

/** Push types a warning is kept apart for; past this, unknown types share one bucket. */
const MAX_WARNED_TYPES = 50;

/** Decides once per push object (every reader of the same push shares the verdict) and warns about drops. */
function pushFilter(opts: CheckOptions): (push: unknown) => push is HostPush {
  const warn = opts.warn ?? ((line: string) => console.warn(line));
  const everyMs = opts.everyMs ?? 10_000;
  const now = opts.now ?? Date.now;
  const verdicts = new WeakMap<object, boolean>();
  const limits = new Map<string, LogWindow>();
  const dropped = (push: unknown, problem: string) => {
    const raw = push && typeof push === 'object' ? (push as { type?: unknown }).type : undefined;
    let type = typeof raw === 'string' ? raw.slice(0, 60) : '(no type)';
    if (!limits.has(type) && limits.size >= MAX_WARNED_TYPES) type = '(other)';
    let limit = limits.get(type);
    if (!limit) limits.set(type, (limit = new LogWindow(1, everyMs)));
    const { pass, heldBack } = limit.admit(now());
    if (!pass) return;
    const more = heldBack ? ` (${heldBack} more dropped since the last warning)` : '';
    warn(`host push ${JSON.stringify(type)} dropped: it does not match the contract: ${problem}${more}`);
  };
  return (push: unknown): push is HostPush => {
    const known = push && typeof push === 'object' ? verdicts.get(push) : undefined;
    if (known !== undefined) return known;
    const problem = pushProblem(push);
    if (push && typeof push === 'object') verdicts.set(push, problem === undefined);
    if (problem !== undefined) dropped(push, problem);
    return problem === undefined;
  };
}

async function* onlyValid(source: AsyncIterable<unknown>, accept: (push: unknown) => push is HostPush): AsyncGenerator<HostPush> {
  for await (const push of source) if (accept(push)) yield push;
}

/**
 * `host` with its answers and pushes checked against the contract; everything else (connection
 * state, `close`, …) is the adapter's own.
 */
export function withChecks<H extends HostServices>(host: H, opts: CheckOptions = {}): H {
  const accept = pushFilter(opts);
  return {
    ...host,
    async call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      const result = await host.call(method, params);
      const found = problems(HOST_METHODS[method].result, result);
      if (found.length) throw new HostCallError(`${method}: the host's answer does not match the contract: ${found.join('; ')}`, 'bad_response', method);
      return result;
    },
    pushes: (signal?: AbortSignal) => onlyValid(host.pushes(signal), accept),
  };
}
