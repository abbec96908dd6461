/**
 * RunSupervisor's pool, against an in-memory process link (so the moment between an idle
 * process being told to stop and its exit can be held open): a run that starts in that moment
 * gets a new process, not the dying one (which would end it as a crash).
 */
import { describe, expect, it } from 'vitest';
import type { ChildExit, ChildFrame, ChildLink, ProcessSpawner } from '../process/types';
import type { RunSpec } from '../../../shared/protocol/runner';
import { RunSupervisor, type RunExit } from './run-supervisor';

/** A process link that records what it is sent and told, and exits only when the test says. */
class HeldLink implements ChildLink {
  readonly sent: ChildFrame[] = [];
  readonly signals: (NodeJS.Signals | undefined)[] = [];
  private readonly frameListeners = new Set<(f: ChildFrame) => void>();
  private readonly exitListeners = new Set<(e: ChildExit) => void>();
  private killed?: () => void;
  /** Resolves when the link is first told to stop. */
  readonly killRequested = new Promise<void>((r) => (this.killed = r));

  constructor(readonly pid: number) {}
  send(frame: ChildFrame): void {
    this.sent.push(frame);
  }
  onFrame(l: (f: ChildFrame) => void): () => void {
    this.frameListeners.add(l);
    return () => this.frameListeners.delete(l);
  }
  onExit(l: (e: ChildExit) => void): () => void {
    this.exitListeners.add(l);
    return () => this.exitListeners.delete(l);
  }
  onStderr(): () => void {
    return () => {};
  }
  kill(signal?: NodeJS.Signals): void {
    this.signals.push(signal);
    this.killed?.();
  }
  /** The runner posts a run message. */
  post(msg: unknown): void {
    for (const l of this.frameListeners) l({ ch: 'run', msg });
  }
  /** The process exits. */
  exit(e: ChildExit): void {
    for (const l of this.exitListeners) l(e);
  }
}

function setup(poolIdleMs: number) {
  const links: HeldLink[] = [];
  const spawner: ProcessSpawner = {
    spawn: () => {
      const link = new HeldLink(1000 + links.length);
      links.push(link);
      return link;
    },
  };
  const exits = new Map<string, RunExit>();
  const supervisor = new RunSupervisor({ spawner, entry: 'runner.js', poolIdleMs, listener: { message: () => {}, exit: (runId, e) => exits.set(runId, e) } });
  return { links, exits, supervisor };
}

const spec = (runId: string) => ({ runId, threadId: `t-${runId}` }) as RunSpec;

describe('RunSupervisor pool', () => {
  it('a run starting after an idle process was told to stop (before it exits) gets a new process', async () => {
    const { links, exits, supervisor } = setup(1);
    const first = supervisor.start(spec('r1'), { pool: 'p' });
    links[0]!.post({ type: 'done' });
    expect((await first.exited).abnormal).toBe(false);

    await links[0]!.killRequested; // the idle time ran out: SIGTERM sent, no exit yet
    expect(links[0]!.signals).toEqual(['SIGTERM']);
    const second = supervisor.start(spec('r2'), { pool: 'p' });
    expect(links).toHaveLength(2);
    expect(second.pid).toBe(links[1]!.pid);
    expect(links[1]!.sent).toEqual([{ ch: 'run', msg: expect.objectContaining({ type: 'start' }) }]);
    expect(links[0]!.sent).toHaveLength(1); // only r1's start

    links[0]!.exit({ code: null, signal: 'SIGTERM' }); // the old process goes: r2 is not touched
    expect(exits.has('r2')).toBe(false);
    links[1]!.post({ type: 'done' });
    expect(await second.exited).toMatchObject({ abnormal: false, sawDone: true });
    expect(exits.get('r2')).toMatchObject({ abnormal: false });
  });
});
