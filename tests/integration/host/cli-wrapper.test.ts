// bin/stepwise.mjs, the wrapper that starts the CLI process: when that process is killed from
// outside, the wrapper says so and exits non-zero instead of ending silently.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';

const ROOT = path.resolve(__dirname, '../../..');
const home = tempFolder('stepwise-wrapper-', 'file');

/** The pids of `pid`'s direct children (Linux `ps`). */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out.split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
}

describe('stepwise wrapper', () => {
  it('names the signal when the CLI process is killed from outside (serve, SIGKILL) and exits 137', async () => {
    const p = spawn(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), 'serve', '--no-open', '--no-seed', '--home', home('h')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '1' },
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    const closed = new Promise<number | null>((resolve) => p.on('close', (code) => resolve(code)));
    await expect.poll(() => stdout, { timeout: 60_000, interval: 100 }).toContain('Stepwise is running at');
    const [cli] = childrenOf(p.pid!);
    expect(cli).toBeGreaterThan(0);
    process.kill(cli!, 'SIGKILL');
    expect(await closed).toBe(137);
    expect(stderr).toContain('stepwise: the CLI process was stopped by SIGKILL');
  }, 90_000);
});
