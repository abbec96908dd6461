/**
 * Read-only viewer adapter: shows one thread (and its stored runs, when given) with no
 * transport. `presentational: true`; every method that would change something rejects with
 * code `read_only`.
 */
import type { HostMethod, HostParams, HostResult, HostPush, RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { HostCallError, type HostServices } from './types';
import { pushIterable } from './push-queue';
import { withChecks } from './checked';

/** Create a viewer over `thread`; `runs` are stored run records to browse in run history. */
export function createViewerHost(thread: Thread, runs: RunRecord[] = []): HostServices {
  const path = `${thread.title || 'thread'}.json`;
  const answers: Partial<{ [M in HostMethod]: (p: HostParams<M>) => HostResult<M> }> = {
    'workspace.list': () => [{ path, kind: 'thread', title: thread.title, id: thread.id }],
    'thread.open': () => ({ thread, version: 0, path }),
    'thread.close': () => ({ ok: true }),
    'run.list': () =>
      runs.map((r) => ({ id: r.runId, startedAt: r.startedAt, endedAt: r.endedAt, status: r.status, mode: r.mode })),
    'run.get': (p) => {
      const r = runs.find((x) => x.runId === p.runId);
      if (!r) throw new HostCallError(`Run ${p.runId} is not in this file.`, 'not_found', 'run.get');
      return r;
    },
    'stream.subscribe': () => ({ ok: true }),
    'stream.ack': () => ({ ok: true }),
    'stream.snapshot': () => ({ ok: true }),
    'settings.providers': () => [],
    'mcp.servers': () => [],
    'mcp.tools': () => [],
  };
  const open = { state: 'open' } as const;
  return withChecks({
    presentational: true,
    connection: () => open,
    async call<M extends HostMethod>(method: M, params: HostParams<M>): Promise<HostResult<M>> {
      const answer = answers[method] as ((p: HostParams<M>) => HostResult<M>) | undefined;
      if (!answer) throw new HostCallError(`This is a read-only viewer: ${method} is not available. Open the thread in Stepwise to edit or run it.`, 'read_only', method);
      return answer(params);
    },
    pushes: (signal) => pushIterable<HostPush>(() => () => {}, signal),
  });
}
