/**
 * Who wrote an edit log, and whether that process still runs (docs/architecture.md#edits-and-undo).
 * A log is named by its writer's pid, and a stopped host's log is replayed only when no live
 * host writes it. A pid alone does not say that: a host killed with SIGKILL stays a zombie
 * while its new parent does not reap it (a container whose first process is `node`, a
 * supervisor that never calls wait), and after a reboot or a pid wrap the same number belongs
 * to an unrelated process. Either way `kill(pid, 0)` succeeds, and the acknowledged edits in the
 * log were neither replayed nor put aside (issue 29). So a log also records its writer's start
 * ({@link writerStart}), and on Linux `/proc/<pid>/stat` tells a zombie and a different process
 * with the same pid from the writer. Without `/proc` (macOS, Windows) only the pid is checked.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';

/** Linux's id of this boot (`/proc/sys/kernel/random/boot_id`), or undefined without one. */
function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * State (`R`, `S`, `Z` …) and start time (clock ticks after boot) from the text of
 * `/proc/<pid>/stat` (proc(5)): fields 3 and 22, counted after the command name, which is in
 * parentheses and may itself hold spaces and parentheses. Undefined for text of another shape.
 */
export function parseProcStat(text: string): { state: string; startTicks: string } | undefined {
  const end = text.lastIndexOf(')');
  if (end < 0) return undefined;
  const fields = text.slice(end + 1).trim().split(/\s+/); // fields[0] is field 3
  const state = fields[0];
  const startTicks = fields[19];
  return state && startTicks && /^\d+$/.test(startTicks) ? { state, startTicks } : undefined;
}

/**
 * The start of process `pid` (`'self'`: this one) as a log records it: `<boot id>:<start ticks>`
 * on Linux, so the same pid in another boot or a later process never matches; undefined where
 * there is no `/proc`, or no such process.
 */
export function processStart(pid: number | 'self'): string | undefined {
  const boot = bootId();
  let stat: ReturnType<typeof parseProcStat>;
  try {
    stat = parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    stat = undefined;
  }
  return boot && stat ? `${boot}:${stat.startTicks}` : undefined;
}

let own: string | undefined | null = null;

/** This process's start ({@link processStart}), read once. */
export function writerStart(): string | undefined {
  if (own === null) own = processStart('self');
  return own;
}

/**
 * Whether the process that wrote a log (`pid`, and `start` as {@link writerStart} gave it, when
 * the log records it) still runs and is not this one. With `/proc`: false for a pid that is
 * gone, a zombie (state `Z`) or dead (`X`), or that started at another time than `start`.
 * Without: whether a process with that pid exists (or cannot be signalled: EPERM).
 */
export async function writerRuns(pid: number, start: string | undefined): Promise<boolean> {
  if (pid === process.pid) return false;
  const self = writerStart();
  if (self !== undefined) {
    if (start !== undefined && start.split(':')[0] !== self.split(':')[0]) return false; // written before a reboot
    let text: string;
    try {
      text = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    } catch {
      return false; // no such process
    }
    const stat = parseProcStat(text);
    if (!stat) return true; // unreadable: keep the log (never replay a live host's)
    if (stat.state === 'Z' || stat.state === 'X') return false;
    return start === undefined || start === `${self.split(':')[0]}:${stat.startTicks}`;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
