// bin/stepwise.mjs, the wrapper that starts the CLI process: when that process is killed from
// outside, the wrapper says so and exits non-zero instead of ending silently; when the wrapper
// itself is killed with SIGKILL, the CLI stops too (with its runner processes); from a folder
// outside the repo with a stale build, it runs the sources through the repo's own tsx.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { spawnCliGroup } from '../../support/cli-process';
import { bundledRunner } from '../../support/runner-bundle';
import { alive } from '../../support/process-alive';

const ROOT = path.resolve(__dirname, '../../..');
const home = tempFolder('stepwise-wrapper-', 'file');

/** The pids of `pid`'s direct children (Linux `ps`), or of those whose command line contains `like`. */
function childrenOf(pid: number, like = ''): number[] {
  let out: string;
  try {
    out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return []; // ps exits 1 when there are none
  }
  return out
    .split('\n')
    .filter((l) => l.includes(like))
    .map((l) => Number(l.trim().split(/\s+/)[0]))
    .filter((n) => n > 0);
}

describe('stepwise wrapper', () => {
  it('runs the sources with the repo\'s tsx from any folder (a stale build), not one found from the working folder', () => {
    const out = execFileSync(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), '--help'], {
      cwd: home(),
      encoding: 'utf8',
      env: { ...process.env, STEPWISE_FROM_SOURCE: '1' },
    });
    expect(out).toMatch(/Usage: stepwise/);
  }, 60_000);

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

  it('the wrapper killed with SIGKILL (a CI timeout): the CLI under it stops its batch and exits, leaving no runner process', async () => {
    const runner = bundledRunner();
    const thread = {
      version: 1,
      id: '0c6d1f8e-2f7b-4b8e-9d55-5a1f0e6c7a31',
      title: 'Slow',
      model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 5 }, script: [{ text: 'word '.repeat(2000) }] },
      context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'Go' }] }] },
      runRefs: [],
    };
    await writeFile(home('t.json'), JSON.stringify(thread));
    await writeFile(home('d.jsonl'), '{"id":"q1"}\n');
    const p = spawnCliGroup(['eval', home('t.json'), '--dataset', home('d.jsonl'), '--home', home('h2')], { STEPWISE_RUNNER_ENTRY: runner });
    const wrapper = p.child.pid!;
    try {
      // The CLI is the wrapper's only child; the case's runner process is the CLI's child.
      let cli = 0;
      let runners: number[] = [];
      await expect
        .poll(
          () => {
            cli = childrenOf(wrapper)[0] ?? 0;
            runners = cli ? childrenOf(cli, path.basename(runner)) : [];
            return runners.length;
          },
          { timeout: 60_000, interval: 200 },
        )
        .toBeGreaterThan(0);
      process.kill(wrapper, 'SIGKILL');
      await expect.poll(() => alive(cli), { timeout: 10_000, interval: 100 }).toBe(false);
      await expect.poll(() => runners.filter(alive), { timeout: 5_000, interval: 100 }).toEqual([]);
      expect(p.out()).toContain('stepwise eval: cancelling');
    } finally {
      try {
        process.kill(-wrapper, 'SIGKILL');
      } catch {
        /* gone */
      }
    }
  }, 90_000);
});
