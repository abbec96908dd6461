/**
 * Runs a command and measures it with its whole process tree (Linux /proc, sampled every
 * 100 ms): wall time, CPU time (user + system of every process seen; a process's last < 100 ms
 * may be missed) and the peak of the tree's summed proportional set size (PSS: a page shared by
 * n processes counts 1/n in each, so Node's shared code is not counted once per process). For the benchmarks that
 * compare a command with another tool's (bench/eval.ts).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** What one command cost. */
export interface TreeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** User + system CPU of the tree, ms. */
  cpuMs: number;
  /** Peak of the tree's summed PSS, MB. */
  peakRssMb: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** A process's PSS in bytes (smaps_rollup), 0 when it is gone. */
function pss(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function stat(pid: number): { ppid: number; cpu: number } | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) * TICK_MS };
  } catch {
    return undefined;
  }
}

/** Every process under `root` (itself included) with its stat. */
function tree(root: number): Map<number, { cpu: number }> {
  const all = new Map<number, { ppid: number; cpu: number }>();
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) all.set(pid, s);
  }
  const out = new Map<number, { cpu: number }>();
  const walk = (pid: number) => {
    const s = all.get(pid);
    if (!s || out.has(pid)) return;
    out.set(pid, s);
    for (const [child, c] of all) if (c.ppid === pid) walk(child);
  };
  walk(root);
  return out;
}

/** Runs `cmd args` in `cwd` with `env` added, to its end. */
export function runMeasured(cmd: string, args: string[], o: { cwd?: string; env?: Record<string, string> } = {}): Promise<TreeRun> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd: o.cwd, env: { ...process.env, ...o.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const cpu = new Map<number, number>();
    let peak = 0;
    const sample = () => {
      let rss = 0;
      for (const [pid, s] of tree(child.pid!)) {
        cpu.set(pid, Math.max(cpu.get(pid) ?? 0, s.cpu));
        rss += pss(pid);
      }
      peak = Math.max(peak, rss);
    };
    const timer = setInterval(sample, 100);
    child.on('close', (code) => {
      clearInterval(timer);
      const wallMs = performance.now() - t0;
      resolve({ code, stdout, stderr, wallMs, cpuMs: [...cpu.values()].reduce((a, b) => a + b, 0), peakRssMb: peak / 1e6 });
    });
  });
}
