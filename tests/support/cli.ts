/** Runs the real `stepwise` CLI (main/cli/index.ts through tsx) in a child process, with the bundled runner. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bundledRunner } from './runner-bundle';

const cli = path.resolve(import.meta.dirname, '../../main/cli/index.ts');

/** What one CLI process did. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `stepwise <args…>`; resolves when the process exits. */
export function stepwise(args: string[]): Promise<CliResult> {
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
