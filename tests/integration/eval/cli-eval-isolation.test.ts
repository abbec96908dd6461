/**
 * `stepwise eval`'s runner processes (docs/architecture.md#evaluation): reused across cases by
 * default, a case whose process is killed runs once more in a fresh one (killed again, it ends
 * `error`); `--isolation fresh` gives each case its own process; MCP tool calls case after case
 * in reused processes.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { storedCase } from '../../../main/core/eval/case-store';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { echoTool, reactThread } from '../../support/threads';
import { seedMcpConfig } from '../../../main/web/seed';
import { evalCli as runEval, evalFiles, evalThread, type Ran } from '../../support/eval-cli';

const dir = tempFolder('stepwise-eval-', 'test');
const evalCli = (args: string[], onLine?: (line: string, pid: number) => void): Promise<Ran> => runEval(dir('home'), args, onLine);
const thread = evalThread;
const files = (t: object = thread(), cases?: string) => evalFiles(dir, t, cases);

describe('stepwise eval: runner processes', () => {
  /** `ps` lines of the children of `pid` (ps exits 1 when there are none). */
  const children = (pid: number | string, format: string): string[] => {
    try {
      return execFileSync('ps', ['-o', format, '--ppid', String(pid)], { encoding: 'utf8' }).trim().split('\n');
    } catch {
      return [];
    }
  };
  /** The agent-runner processes under the CLI started by the wrapper `wrapperPid`. */
  const runners = (wrapperPid: number): number[] => {
    const cli = children(wrapperPid, 'pid=')[0]?.trim();
    if (!cli) return [];
    return children(cli, 'pid=,args=')
      .filter((l) => l.includes('agent-runner'))
      .map((l) => Number(l.trim().split(/\s+/)[0]));
  };

  it('--isolation fresh: a case whose runner process is killed ends error; the other cases go on and pass', async () => {
    const f = await files(thread(`${'slow words '.repeat(60)}4`, 15), '{"id":"q1"}\n');
    let killed = false;
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--isolation', 'fresh', '--concurrency', '2', '--variant', 'name=slow', '--variant', 'name=fast tokensPerSecond=100000'], (line, wrapperPid) => {
      if (killed || !line.startsWith('PASS q1 [fast]')) return;
      // The fast case is done and its process gone; the slow one's runner is the CLI's only agent-runner child.
      const kids = runners(wrapperPid);
      expect(kids).toHaveLength(1);
      process.kill(kids[0], 'SIGKILL');
      killed = true;
    });
    expect(killed).toBe(true);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('on local (a fresh runner process per case)');
    expect(r.stdout).toMatch(/^ERROR q1 \[slow\] .*The runner process stopped unexpectedly \(signal SIGKILL\)/m);
  }, 120_000);

  /**
   * Reused processes (the default), one case at a time: the fast case's process runs the slow
   * case next; killed mid-case, that case runs again in a fresh process. `kills` processes are
   * killed, each a new one once the case is under way in it.
   */
  async function killReused(kills: number): Promise<{ r: Ran; seen: number[] }> {
    const f = await files(thread(`${'slow words '.repeat(40)}4`, 20), '{"id":"q1"}\n');
    const seen: number[] = [];
    let started = false;
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--json', dir('r.json'), '--concurrency', '1', '--variant', 'name=fast tokensPerSecond=100000', '--variant', 'name=slow'], (line, wrapperPid) => {
      if (started || !line.startsWith('PASS q1 [fast]')) return;
      started = true;
      void (async () => {
        while (seen.length < kills) {
          const kid = runners(wrapperPid).find((p) => !seen.includes(p));
          if (kid) {
            if (seen.length === 0) await new Promise((res) => setTimeout(res, 300)); // the slow case is under way
            else await new Promise((res) => setTimeout(res, 500));
            seen.push(kid);
            process.kill(kid, 'SIGKILL');
          } else await new Promise((res) => setTimeout(res, 50));
        }
      })();
    });
    return { r, seen };
  }

  it('reused processes: a case whose process is killed runs again in a fresh process and passes (two attempts)', async () => {
    const { r, seen } = await killReused(1);
    expect(seen).toHaveLength(1);
    expect(r.stdout).toContain('on local (runner processes reused across cases)');
    expect(r.stdout).toMatch(/^PASS q1 \[slow\]/m);
    expect(r.code).toBe(0);
    const json = JSON.parse(await readFile(dir('r.json'), 'utf8'));
    expect(json.results.map((x: { variant: string; attempts: number }) => [x.variant, x.attempts])).toEqual([
      ['fast', 1],
      ['slow', 2],
    ]);
  }, 120_000);

  it('reused processes: killed again in its fresh process, the case ends error and eval exits 3', async () => {
    const { r, seen } = await killReused(2);
    expect(seen).toHaveLength(2);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^ERROR q1 \[slow\] .*The runner process stopped unexpectedly \(signal SIGKILL\)/m);
  }, 120_000);

  it('reused processes run MCP tool calls case after case: each case gets its own tool results', async () => {
    expect(await seedMcpConfig(dir('home'))).toBe(true);
    const t = reactThread(3, echoTool, (turn) => ({ message: `turn ${turn}` }), { tokensPerSecond: 100000 });
    await writeFile(dir('mcp.json'), JSON.stringify(t));
    await writeFile(dir('m.jsonl'), '{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
    await writeFile(dir('called.json'), JSON.stringify([{ type: 'tool_called', tool: 'echo' }, { type: 'contains', value: 'All done after 3 turns.' }]));
    const r = await evalCli([dir('mcp.json'), '--dataset', dir('m.jsonl'), '--assertions', dir('called.json'), '--concurrency', '1']);
    expect(r.stdout).toContain('(runner processes reused across cases)');
    expect(r.code).toBe(0);
    const batchDir = /^results: (.+)$/m.exec(r.stdout)![1];
    for (const id of ['a', 'b', 'c']) {
      const saved = (await storedCase(path.join(batchDir, `${id}.json`)))!.thread;
      const outputs = saved.context.messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []).map((c) => (c.output?.content[0] as { text?: string } | undefined)?.text));
      expect(outputs).toEqual(['Echo: turn 1', 'Echo: turn 2']);
    }
  }, 180_000);

  it('--isolation takes reuse or fresh, and names a wrong value', async () => {
    const f = await files();
    const r = await evalCli([f.t, '--dataset', f.d, '--isolation', 'shared']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--isolation must be reuse or fresh, not "shared"');
  }, 120_000);
});
