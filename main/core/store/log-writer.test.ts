import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProcStat, processStart, writerRuns, writerStart } from './log-writer';

/** A `/proc/<pid>/stat` line (proc(5)) with command `comm`, state `state` and start time `start`. */
function statLine(pid: number, comm: string, state: string, start: number): string {
  const fields = [state, 1, pid, pid, 0, -1, 4194560, 100, 0, 0, 0, 5, 3, 0, 0, 20, 0, 11, 0, start, 1234567, 890];
  return `${pid} (${comm}) ${fields.join(' ')}\n`;
}

describe('parseProcStat', () => {
  it('reads the state and start time whatever the command name holds (spaces, parentheses)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4194304 }), fc.string({ maxLength: 16 }), fc.constantFrom('R', 'S', 'D', 'Z', 'X', 'T'), fc.nat(), (pid, comm, state, start) => {
        expect(parseProcStat(statLine(pid, comm, state, start))).toEqual({ state, startTicks: String(start) });
      }),
    );
    expect(parseProcStat(statLine(7, 'node) S 1 (x', 'Z', 42))).toEqual({ state: 'Z', startTicks: '42' });
  });

  it('gives undefined for text of another shape', () => {
    for (const text of ['', '12 node S 1', '12 (node) S 1 2 3', '12 (node) S 1 1 1 0 -1 1 1 0 0 0 1 1 0 0 20 0 1 0 notanumber 1 1']) expect(parseProcStat(text)).toBeUndefined();
  });
});

describe.runIf(writerStart() !== undefined)('writerRuns (Linux, /proc)', () => {
  it('a running process started when the log says runs; the same pid started at another time, or in another boot, does not', async () => {
    const parent = processStart(process.ppid)!;
    expect(await writerRuns(process.ppid, parent)).toBe(true);
    expect(await writerRuns(process.ppid, undefined)).toBe(true); // a log from before starts were recorded: the pid alone
    const [boot, ticks] = parent.split(':');
    expect(await writerRuns(process.ppid, `${boot}:${Number(ticks) + 1}`)).toBe(false);
    expect(await writerRuns(process.ppid, `00000000-0000-0000-0000-000000000000:${ticks}`)).toBe(false);
  });

  it('this process, and a pid no process has, are not a running writer', async () => {
    expect(await writerRuns(process.pid, writerStart())).toBe(false);
    expect(await writerRuns(2 ** 22 + 1, undefined)).toBe(false); // above Linux's largest pid
  });
});
