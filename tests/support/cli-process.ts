/** The `stepwise` CLI as a real process from its TypeScript sources, with the bundled runner. */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bundledRunner } from './runner-bundle';

const cli = path.resolve(import.meta.dirname, '../../main/cli/index.ts');

/** Runs `stepwise <args>` to its exit: its exit code and everything it printed. */
export function runCliProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, STEPWISE_RUNNER_ENTRY: bundledRunner() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A running `stepwise` process (bin/stepwise.mjs) in its own process group. */
export interface CliGroup {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr interleaved. */
  out: () => string;
  /** Its exit code once it closed. */
  done: Promise<number | null>;
}

/**
 * Starts `stepwise <args>` through bin/stepwise.mjs, in a process group of its own so that a
 * signal to the group (`stopGroup`, or `process.kill(-pid)`) reaches the CLI under the wrapper too.
 * `env` is added to this process's environment.
 */
export function spawnCliGroup(args: string[], env: Record<string, string> = {}): CliGroup {
  const root = path.resolve(import.meta.dirname, '../..');
  const child = spawn(process.execPath, [path.join(root, 'bin/stepwise.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true, env: { ...process.env, ...env } });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, out: () => out, done: new Promise((resolve) => child.on('close', (code) => resolve(code))) };
}

/** Stops a group started by spawnCliGroup with SIGTERM and waits for it to close. */
export async function stopGroup(p: CliGroup): Promise<void> {
  if (p.child.exitCode !== null) return;
  process.kill(-p.child.pid!, 'SIGTERM');
  await p.done;
}
