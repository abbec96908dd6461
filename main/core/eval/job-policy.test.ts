import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { BUILTIN_TOOLS } from '../../../shared/thread/builtin-tools';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import type { CaseJob } from './case-run';
import { answeredThread, applyJobPolicy, BUILTIN_POWER, parseAllowTools, powerfulBuiltins, type AgentThreadLoader } from './job-policy';

const HOME = path.resolve('/worker-home');

function thread(tools: Tool[], settings?: Thread['settings'], id = 'case-thread-1'): Thread {
  return {
    version: 1,
    id,
    title: 'Case',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    ...(settings ? { settings } : {}),
    context: { systemPrompt: '', tools, messages: [] },
    runRefs: [],
  };
}
const job = (t: Thread): CaseJob => ({ batchId: 'b1', caseId: 'c1', variant: 'base', thread: t, assertions: [], vars: {}, maxTurns: 3, attempt: 1, file: 'c1.json' });
const builtin = (name: string, config?: Record<string, unknown>): Tool => ({ type: 'builtin', name, ...(config ? { config } : {}) });
const noAgents: AgentThreadLoader = async (p) => {
  throw new Error(`no thread ${p}`);
};
const none = parseAllowTools(undefined);

describe('the job policy of a worker', () => {
  it('classifies every built-in tool; the powerful ones are exactly those needing approval', () => {
    expect(Object.keys(BUILTIN_POWER).sort()).toEqual(Object.keys(BUILTIN_TOOLS).sort());
    expect(powerfulBuiltins().sort()).toEqual(['apply_patch', 'bash', 'edit', 'web_fetch', 'write']);
    expect(powerfulBuiltins().sort()).toEqual(Object.entries(BUILTIN_TOOLS).filter(([, d]) => d.approval).map(([n]) => n).sort());
  });

  it('by default runs read-only and session tools, in a folder of the case\'s own under the worker\'s home', async () => {
    const r = await applyJobPolicy(job(thread(['read', 'ls', 'glob', 'grep', 'todo_write', 'sleep', 'ask_user_question'].map((n) => builtin(n)))), none, HOME, noAgents);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(path.relative(path.join(HOME, 'work', 'remote', 'b1'), r.cwd)).toMatch(/^c1-[0-9a-f]{8}$/);
    expect(r.job.thread.settings?.cwd).toBe(r.cwd);
    const again = await applyJobPolicy(job(thread([])), none, HOME, noAgents);
    expect(again.ok && again.cwd).not.toBe(r.cwd);
  });

  it('by default refuses each tool that runs commands, changes files or reaches the network, however it is named', async () => {
    for (const name of powerfulBuiltins()) {
      const r = await applyJobPolicy(job(thread([builtin(name)])), none, HOME, noAgents);
      expect(r).toMatchObject({ ok: false, problem: expect.stringContaining(`refused: the job's thread uses the built-in tool "${name}"`) });
    }
    expect(await applyJobPolicy(job(thread([builtin('read', { tool: 'bash' })])), none, HOME, noAgents)).toEqual({
      ok: false,
      problem: 'refused: the job\'s thread uses the built-in tool "bash" (as "read"), which runs commands on the worker (a worker started with --allow-tools bash runs it)',
    });
    expect(await applyJobPolicy(job(thread([builtin('run_command')])), none, HOME, noAgents)).toMatchObject({ ok: false, problem: expect.stringContaining('"bash" (as "run_command")') });
    const mcp: Tool = { type: 'mcp', name: 'fs_write', server: 'fs', toolName: 'write', inputSchema: { type: 'object' } };
    expect(await applyJobPolicy(job(thread([mcp])), none, HOME, noAgents)).toMatchObject({ ok: false, problem: expect.stringContaining('the MCP tool "fs_write"') });
    const agent: Tool = { type: 'agent', name: 'helper', threadPath: 'helper.json' };
    expect(await applyJobPolicy(job(thread([agent])), none, HOME, noAgents)).toMatchObject({ ok: false, problem: expect.stringContaining('the agent tool "helper"') });
  });

  it('by default refuses settings.cwd and settings.allowTools', async () => {
    expect(await applyJobPolicy(job(thread([], { cwd: '/tmp/x' })), none, HOME, noAgents)).toEqual({
      ok: false,
      problem: 'refused: the job\'s thread sets settings.cwd, which a job may not (the worker runs each case in a folder of its own)',
    });
    expect(await applyJobPolicy(job(thread([], { allowTools: ['bash', 'write'] })), none, HOME, noAgents)).toEqual({
      ok: false,
      problem: 'refused: the job\'s thread sets settings.allowTools to run "bash", "write" without approval, which the worker does not allow (--allow-tools)',
    });
  });

  it('with --allow-tools lets the named tools through, ignores settings.cwd and refuses the others', async () => {
    const p = parseAllowTools('bash, write');
    const r = await applyJobPolicy(job(thread([builtin('bash'), builtin('write'), builtin('read')], { cwd: '/tmp/x', allowTools: ['bash', 'write'] })), p, HOME, noAgents);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.job.thread.settings).toEqual({ cwd: r.cwd, allowTools: ['bash', 'write'] });
    expect(r.cwd.startsWith(path.join(HOME, 'work', 'remote') + path.sep)).toBe(true);
    expect(await applyJobPolicy(job(thread([builtin('edit')])), p, HOME, noAgents)).toMatchObject({ ok: false, problem: expect.stringContaining('"edit"') });
    expect(await applyJobPolicy(job(thread([], { allowTools: ['web_fetch'] })), p, HOME, noAgents)).toMatchObject({ ok: false, problem: expect.stringContaining('"web_fetch"') });
    expect(parseAllowTools('all').allow).toEqual(new Set([...powerfulBuiltins(), 'mcp', 'agent']));
    expect(() => parseAllowTools('bash,rm')).toThrow('--allow-tools takes a comma-separated list of');
    expect(() => parseAllowTools('')).toThrow('--allow-tools');
  });

  it('checks the threads agent tools run: their tools, settings.allowTools and settings.cwd', async () => {
    const p = parseAllowTools('agent');
    const subs: Record<string, Thread> = {
      'ok.json': thread([builtin('grep')], undefined, 'ok'),
      'shell.json': thread([{ type: 'agent', name: 'deeper', threadPath: 'deep.json' }], undefined, 'shell'),
      'deep.json': thread([builtin('bash')], undefined, 'deep'),
      'cwd.json': thread([], { cwd: '/' }, 'cwd'),
      'loop.json': thread([{ type: 'agent', name: 'loop', threadPath: 'loop.json' }], undefined, 'loop'),
    };
    const load: AgentThreadLoader = async (x) => {
      if (!subs[x]) throw new Error('no such file');
      return subs[x];
    };
    const withAgent = (threadPath: string) => job(thread([{ type: 'agent', name: 'a', threadPath }]));
    expect((await applyJobPolicy(withAgent('ok.json'), p, HOME, load)).ok).toBe(true);
    expect(await applyJobPolicy(withAgent('shell.json'), p, HOME, load)).toEqual({
      ok: false,
      problem: 'refused: the agent thread "deep.json" uses the built-in tool "bash", which runs commands on the worker (a worker started with --allow-tools bash runs it)',
    });
    expect(await applyJobPolicy(withAgent('cwd.json'), p, HOME, load)).toMatchObject({ ok: false, problem: expect.stringContaining('the agent thread "cwd.json" sets settings.cwd') });
    expect(await applyJobPolicy(withAgent('loop.json'), p, HOME, load)).toMatchObject({ ok: false, problem: expect.stringContaining('nests agent tools more than 5 deep') });
    expect(await applyJobPolicy(withAgent('gone.json'), p, HOME, load)).toEqual({ ok: false, problem: 'refused: the agent thread "gone.json" cannot be read: no such file' });
  });

  it('the answered thread carries the job\'s settings.cwd, not the worker\'s folder', () => {
    const ran = thread([], { cwd: '/worker-home/work/remote/b1/c1-0123abcd', allowTools: ['bash'] });
    expect(answeredThread(ran, thread([])).settings).toEqual({ allowTools: ['bash'] });
    expect(answeredThread(ran, thread([], { cwd: 'proj' })).settings).toEqual({ cwd: 'proj', allowTools: ['bash'] });
  });
});
