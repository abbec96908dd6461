/**
 * What a `stepwise worker` lets a case job from Redis do (docs/architecture.md#evaluation).
 * Anyone who can write to the queue's Redis can add a job, so a job gets no more power than the
 * worker's owner gave with `--allow-tools`. By default a job may not set `settings.cwd` or
 * `settings.allowTools`, nor use a tool that runs commands, changes files, reaches the network,
 * reaches the worker's MCP servers or runs another thread (agent tools); the read-only built-in
 * tools stay, confined to the case's own working folder under the worker's home. With
 * `--allow-tools` the named kinds are let through; a job's `settings.cwd` is then still
 * ignored: the case runs in a folder of its own under the worker's home.
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { BUILTIN_TOOLS, builtinNameOf } from '../../../shared/thread/builtin-tools';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import { safeStem } from '../workspace/names';
import type { CaseJob } from './case-run';

/** What a built-in tool can reach: the run itself, files to read in its folder, or more. */
export type BuiltinPower = 'session' | 'read' | 'write' | 'execute' | 'network';

/**
 * Every built-in tool (shared/thread/builtin-tools.ts) by what it reaches. `session` and `read`
 * tools run for any job (reads are confined to the working folder: agent-runner's confine.ts);
 * the others only when the worker's owner names them in `--allow-tools`. A built-in tool missing
 * here counts as `execute` (refused by default), so that a new tool is never let through unread.
 */
export const BUILTIN_POWER: Readonly<Record<string, BuiltinPower>> = {
  read: 'read',
  ls: 'read',
  glob: 'read',
  grep: 'read',
  todo_write: 'session',
  ask_user_question: 'session',
  sleep: 'session',
  write: 'write',
  edit: 'write',
  apply_patch: 'write',
  bash: 'execute',
  web_fetch: 'network',
};

/** Names `--allow-tools` takes besides the powerful built-in tools: MCP tools and agent tools. */
export const OTHER_GRANTS = ['mcp', 'agent'] as const;

/** The built-in tools a job may use only when the worker's owner allows them by name. */
export function powerfulBuiltins(): string[] {
  return Object.keys(BUILTIN_TOOLS).filter((n) => powerOf(n) !== 'session' && powerOf(n) !== 'read');
}

function powerOf(name: string): BuiltinPower {
  return Object.hasOwn(BUILTIN_POWER, name) ? BUILTIN_POWER[name] : 'execute';
}

/** What a worker lets jobs do: the powerful tool kinds its owner named (empty: none). */
export interface JobPolicy {
  /** Built-in tool names (bash, write, …), `mcp` and `agent`. */
  allow: ReadonlySet<string>;
}

/**
 * `--allow-tools`'s value (comma-separated; `all` = every kind), checked; throws naming the flag
 * and the unknown names.
 */
export function parseAllowTools(v: string | undefined): JobPolicy {
  if (v === undefined) return { allow: new Set() };
  const known = [...powerfulBuiltins(), ...OTHER_GRANTS];
  const names = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.includes('all')) return { allow: new Set(known) };
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length || !names.length) {
    throw new Error(`--allow-tools takes a comma-separated list of ${known.join(', ')} (or all), not ${JSON.stringify(v)}`);
  }
  return { allow: new Set(names) };
}

/** Reads an agent tool's thread as the runner would (relative to the worker's workspace); throws when it cannot. */
export type AgentThreadLoader = (threadPath: string) => Promise<Thread>;

/** Agent tools nest at most this deep (as agent-runner's loop stops them). */
const MAX_DEPTH = 5;

const grant = (name: string) => `(a worker started with --allow-tools ${name} runs it)`;

/** Why `tool` is refused under `policy`, or undefined. `where` names the thread it is in. */
function toolProblem(tool: Tool, policy: JobPolicy, where: string): string | undefined {
  if (tool.type === 'builtin') {
    const name = builtinNameOf(tool);
    if (name === undefined) return undefined; // runs as "unknown built-in tool": an error result, nothing else
    const power = powerOf(name);
    if (power === 'session' || power === 'read' || policy.allow.has(name)) return undefined;
    return `${where} uses the built-in tool ${JSON.stringify(name)}${tool.name !== name ? ` (as ${JSON.stringify(tool.name)})` : ''}, which ${power === 'write' ? 'changes files' : power === 'network' ? 'reaches the network' : 'runs commands'} on the worker ${grant(name)}`;
  }
  if (tool.type === 'mcp' && !policy.allow.has('mcp')) return `${where} uses the MCP tool ${JSON.stringify(tool.name)}, which reaches the worker's MCP servers ${grant('mcp')}`;
  if (tool.type === 'agent' && !policy.allow.has('agent')) return `${where} uses the agent tool ${JSON.stringify(tool.name)}, which runs a thread of the worker's workspace ${grant('agent')}`;
  return undefined;
}

/** Why a thread's settings are refused: `settings.allowTools` beyond the policy. */
function allowToolsProblem(thread: Thread, policy: JobPolicy, where: string): string | undefined {
  const asked = thread.settings?.allowTools;
  if (!asked?.length) return undefined;
  const beyond = asked.filter((n) => !policy.allow.has(n));
  if (!beyond.length) return undefined;
  return `${where} sets settings.allowTools to run ${beyond.map((n) => JSON.stringify(n)).join(', ')} without approval, which the worker does not allow (--allow-tools)`;
}

async function threadProblem(thread: Thread, policy: JobPolicy, where: string, load: AgentThreadLoader, depth: number): Promise<string | undefined> {
  const p = allowToolsProblem(thread, policy, where);
  if (p) return p;
  for (const tool of thread.context.tools) {
    const tp = toolProblem(tool, policy, where);
    if (tp) return tp;
    if (tool.type !== 'agent') continue;
    const sub = `the agent thread ${JSON.stringify(tool.threadPath)}`;
    if (depth >= MAX_DEPTH) return `${sub} nests agent tools more than ${MAX_DEPTH} deep`;
    let t: Thread;
    try {
      t = await load(tool.threadPath);
    } catch (err) {
      return `${sub} cannot be read: ${(err as Error).message}`;
    }
    // Its folder cannot be moved under the case's: a sub-agent that sets its own is refused.
    if (t.settings?.cwd !== undefined) return `${sub} sets settings.cwd, which a job may not (its folder would not be the case's own)`;
    const deeper = await threadProblem(t, policy, sub, load, depth + 1);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * The job as this worker will run it, or why it is refused (a sentence naming what was refused).
 * Refused: `settings.cwd` or `settings.allowTools` when the policy allows nothing; tools and
 * `settings.allowTools` names beyond the policy, in the job's thread and in the threads its agent
 * tools run. Allowed jobs run with `settings.cwd` set to a new folder of their own,
 * `<home>/work/remote/<batch>/<case file>-<random>` (`home`: the worker's), whatever they asked.
 */
export async function applyJobPolicy(job: CaseJob, policy: JobPolicy, home: string, load: AgentThreadLoader): Promise<{ ok: true; job: CaseJob; cwd: string } | { ok: false; problem: string }> {
  const where = 'the job\'s thread';
  if (!policy.allow.size && job.thread.settings?.cwd !== undefined) {
    return { ok: false, problem: `refused: ${where} sets settings.cwd, which a job may not (the worker runs each case in a folder of its own)` };
  }
  const p = await threadProblem(job.thread, policy, where, load, 0);
  if (p) return { ok: false, problem: `refused: ${p}` };
  const cwd = path.join(path.resolve(home), 'work', 'remote', safeStem(job.batchId), `${job.file.replace(/\.json$/, '')}-${randomUUID().slice(0, 8)}`);
  const thread = structuredClone(job.thread);
  thread.settings = { ...thread.settings, cwd };
  return { ok: true, job: { ...job, thread }, cwd };
}

/**
 * The case thread a worker sends back: `settings.cwd` as the job had it (the worker's folder is
 * the worker's business, and its absolute path stays on the worker).
 */
export function answeredThread(ran: Thread, asked: Thread): Thread {
  const t = structuredClone(ran);
  const cwd = asked.settings?.cwd;
  if (cwd === undefined) {
    if (t.settings) delete t.settings.cwd;
  } else t.settings = { ...t.settings, cwd };
  return t;
}
