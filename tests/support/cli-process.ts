/** The `stepwise` CLI as a real process from its TypeScript sources, with the bundled runner. */
import { spawn } from 'node:child_process';
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
