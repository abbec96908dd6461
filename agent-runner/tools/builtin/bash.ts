/**
 * The `bash` built-in tool: `bash -c <command>` in the working directory, in its own process
 * group (detached) with a minimal environment (PATH, HOME, LANG: no API keys), killed as a
 * group on timeout, when the run is cancelled, when the command ends (background jobs
 * it left) and when the runner exits. Result `structuredContent`: a `BashResult`
 * (shared/tools/builtin-results.ts).
 */
import { spawn } from 'node:child_process';
import type { ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput } from '../../../shared/thread/tool-output';
import type { BashResult } from '../../../shared/tools/builtin-results';

/** Default and largest timeout, ms. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
export const MAX_BASH_TIMEOUT_MS = 600_000;
/** Characters kept of stdout and of stderr each. */
export const MAX_BASH_OUTPUT_CHARS = 30_000;
/** After the group is killed, how long to wait for the pipes to close before answering (ms). */
const CLOSE_GRACE_MS = 2_000;

/** Process groups of commands still running: killed when the runner exits, so none is orphaned. */
const liveGroups = new Set<number>();
process.on('exit', () => {
  for (const pid of liveGroups) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** The environment a command sees: PATH, HOME and LANG only. */
export function minimalEnv(): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin', HOME: process.env.HOME ?? '/', LANG: process.env.LANG ?? 'C.UTF-8' };
}

/** Runs `command` in `cwd`; `signal` kills its process group. Never rejects. */
export function runBash(command: string, cwd: string, timeoutMs: number, signal: AbortSignal): Promise<BashResult> {
  return new Promise((resolve) => {
    const out = { stdout: '', stderr: '', truncated: false };
    let timedOut = false;
    let settled = false;
    const child = spawn('bash', ['-c', command], { cwd, env: minimalEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) liveGroups.add(child.pid);
    const take = (which: 'stdout' | 'stderr') => (chunk: Buffer) => {
      const room = MAX_BASH_OUTPUT_CHARS - out[which].length;
      if (room <= 0) return void (out.truncated = true);
      const text = chunk.toString('utf8');
      if (text.length > room) out.truncated = true;
      out[which] += text.slice(0, room);
    };
    child.stdout.on('data', take('stdout'));
    child.stderr.on('data', take('stderr'));
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => killGroup();
    signal.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | null, sig: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // What the command left running in its group (`server &`) ends with it: nothing is orphaned.
      killGroup();
      if (child.pid) liveGroups.delete(child.pid);
      signal.removeEventListener('abort', onAbort);
      resolve({ kind: 'bash', command, exitCode, ...(sig ? { signal: sig } : {}), ...out, timedOut, truncated: out.truncated });
    };
    child.on('error', (err) => {
      out.stderr += `bash could not start: ${err.message}`;
      finish(null, null);
    });
    // 'close' waits for the pipes; a process that left the group could hold them open.
    child.on('close', (code, sig) => finish(code, sig));
    child.on('exit', (code, sig) => {
      setTimeout(() => finish(code, sig), CLOSE_GRACE_MS).unref();
    });
    if (signal.aborted) killGroup();
  });
}

/** The `bash` tool call: `{command, timeout_ms?}`. */
export async function bashTool(cwd: string, a: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutput> {
  const command = typeof a.command === 'string' ? a.command : '';
  if (!command.trim()) return toolErrorOutput('bash: the command is empty.');
  const timeout = Math.min(typeof a.timeout_ms === 'number' ? a.timeout_ms : DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS);
  const r = await runBash(command, cwd, timeout, signal);
  const status = r.timedOut ? `timed out after ${timeout} ms (process group killed)` : r.signal ? `killed by ${r.signal}` : `exit code ${r.exitCode}`;
  const text = [`$ ${command}`, status, r.stdout && `stdout:\n${r.stdout}`, r.stderr && `stderr:\n${r.stderr}`, r.truncated && `(output cut at ${MAX_BASH_OUTPUT_CHARS} characters per stream)`].filter(Boolean).join('\n');
  return { content: [{ type: 'text', text }], structuredContent: r, isError: r.exitCode !== 0 };
}
