/**
 * `stepwise run <thread.json>`: one run of a thread file in a real runner process, through
 * the host core's supervisor and bridge. Prints a readable live tree (or every envelope as a
 * JSON line with `--events`) and applies the result to the file unless `--dry-run`.
 * MCP tools run through an mcp-host started for the run (settings/mcp.json of the home).
 * `--scenario NAME` runs with that scenario's variables (docs/architecture.md#templates).
 * Exit codes: 0 completed or waiting for tool input, 1 error/cancelled/interrupted (and, with
 * --execute-tools, a tool that ended in error), 2 bad input (a template error among them). Ctrl-C, SIGTERM, SIGHUP and a
 * closed stdout cancel the run cleanly; a second signal stops it at once.
 * `--from-run <runId> --from-call <n>` is time travel (docs/architecture.md#branches-and-time-travel):
 * the run's model calls before n are played back from its record and their tools' results
 * reused; the thread's messages after the ones that run started from become the new run's.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { HostPush } from '../../../shared/protocol/host-api';
import type { RunMode } from '../../../shared/thread/schema';
import { createHostCore, defaultHome, type HostCore } from '../../core/host-core';
import { NodeSpawner } from '../../core/process/node-spawner';
import { mcpHostEntry } from '../../core/process/entries';
import { McpService } from '../../core/mcp/service';
import { seedMcpConfig } from '../../web/seed';
import { LiveTreePrinter } from './run-printer';
import { onStopSignals } from '../stop-signals';

interface RunOptions {
  mode: string;
  maxTurns?: string;
  executeTools?: boolean | string[];
  events?: boolean;
  home?: string;
  dryRun?: boolean;
  scenario?: string;
  fresh?: boolean;
  fromRun?: string;
  fromCall?: string;
}

class BadInput extends Error {}

function parseOptions(o: RunOptions): { mode: RunMode; maxTurns?: number; toolCallIds?: string[]; fromRun?: { runId: string; fromCall: number } } {
  let mode: RunMode;
  if (o.executeTools) mode = 'tool';
  else if (o.mode === 'step' || o.mode === 'react') mode = o.mode;
  else throw new BadInput(`--mode must be step or react, not ${JSON.stringify(o.mode)}`);
  let maxTurns: number | undefined;
  if (o.maxTurns !== undefined) {
    maxTurns = Number(o.maxTurns);
    if (!Number.isInteger(maxTurns) || maxTurns < 1) throw new BadInput(`--max-turns must be a positive integer, not ${JSON.stringify(o.maxTurns)}`);
  }
  const toolCallIds = Array.isArray(o.executeTools) && o.executeTools.length ? o.executeTools : undefined;
  if ((o.fromRun === undefined) !== (o.fromCall === undefined)) throw new BadInput('--from-run and --from-call go together: the run to re-run and the model call (1, 2, …) to run live from');
  if (o.fromRun === undefined) return { mode, maxTurns, toolCallIds };
  const fromCall = Number(o.fromCall);
  if (!Number.isInteger(fromCall) || fromCall < 1) throw new BadInput(`--from-call must be a positive integer (1 = the run's first model call), not ${JSON.stringify(o.fromCall)}`);
  if (mode === 'tool') throw new BadInput('--from-run re-runs model calls; it does not go with --execute-tools');
  return { mode, maxTurns, toolCallIds, fromRun: { runId: o.fromRun, fromCall } };
}

/** Run one thread file; resolves with the exit code. */
export async function runThreadFile(file: string, o: RunOptions): Promise<number> {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(o);
  } catch (err) {
    process.stderr.write(`stepwise run: ${(err as Error).message}\n`);
    return 2;
  }
  const log = (level: string, message: string): void => {
    if (level === 'warn' || level === 'error') process.stderr.write(`stepwise run: ${level}: ${message}\n`);
  };
  const home = path.resolve(o.home ?? defaultHome());
  // A new home gets the `everything` server, as with `serve`; a dry run changes no settings.
  await seedMcpConfig(home, (line) => process.stderr.write(`stepwise run: ${line}\n`), { migrate: !o.dryRun });
  const spawner = new NodeSpawner({ detached: true, stdout: 'pipe' });
  const mcp = new McpService({ home, spawner, entry: mcpHostEntry() });
  const core: HostCore = await createHostCore({ home, spawner, mcp, mcpRelay: mcp, log, applyRepairedRuns: !o.dryRun });
  const closeAll = async () => {
    await core.close();
    await mcp.close();
  };
  let threadId: string;
  try {
    threadId = (await core.threads.open(path.resolve(file))).thread.id;
  } catch (err) {
    process.stderr.write(`stepwise run: ${(err as Error).message}\n`);
    await closeAll();
    return 2;
  }

  // stdout may be a pipe its reader closed (`stepwise run --events | head -1`): the run is
  // then cancelled, nothing more is written, and no EPIPE error surfaces. The listeners stay:
  // a write already under way may still report its error.
  let outClosed = false;
  let interrupts = 0;
  let runId: string | undefined;
  const out = (s: string): void => {
    if (!outClosed) process.stdout.write(s);
  };
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (outClosed) return;
    outClosed = true;
    if (err.code !== 'EPIPE') process.stderr.write(`stepwise run: cannot write to stdout (${err.message}): cancelling the run\n`);
    stop();
  });
  process.stderr.on('error', () => {}); // nowhere left to say anything

  const printer = o.events ? undefined : new LiveTreePrinter(out);
  let finish!: (status: string) => void;
  const toolErrors = new Set<string>();
  const ended = new Promise<string>((r) => (finish = r));
  const client = core.connect(
    (push: HostPush) => {
      if ('runId' in push && runId && push.runId !== runId) return;
      if (o.events) {
        if ('v' in push) out(`${JSON.stringify(push)}\n`);
      } else if ('v' in push && (push.type === 'tree_update' || push.type === 'node_update' || push.type === 'llm_delta' || push.type === 'node_snapshot')) {
        printer!.apply(push);
      }
      if (push.type === 'tree_update') for (const n of push.nodes) if (n.kind === 'tool' && n.status === 'error') toolErrors.add(n.id);
      if (push.type === 'run_ended' && push.runId === runId) finish(push.status);
    },
    { unbounded: true, runResults: !!o.events },
  );
  client.stream.subscribe(threadId);

  // Ctrl-C, SIGTERM (kill, a service manager) and SIGHUP (the terminal closed) cancel the run
  // cleanly, so its file and thread are settled; a second one stops it at once.
  function stop(signal?: NodeJS.Signals): void {
    interrupts++;
    if (signal && interrupts === 1) {
      const again = signal === 'SIGINT' ? 'Ctrl-C again' : `${signal} again`;
      process.stderr.write(`\nstepwise run: cancelling (${again} to stop at once)\n`);
    }
    if (!runId) return; // cancelled as soon as it has started
    if (interrupts === 1) core.supervisor.cancel(runId, 'cancelled from the command line');
    else core.supervisor.kill(runId);
  }
  const offSignals = onStopSignals((signal) => stop(signal));
  try {
    try {
      runId = (await core.runs.start({ threadId, ...parsed, apply: !o.dryRun, scenario: o.scenario, fresh: o.fresh })).runId;
    } catch (err) {
      process.stderr.write(`stepwise run: ${(err as Error).message}\n`);
      return 2;
    }
    if (interrupts) core.supervisor.cancel(runId, 'cancelled from the command line');
    const status = await ended;
    printer?.end(status);
    if (parsed.mode === 'tool' && toolErrors.size > 0) {
      process.stderr.write(`stepwise run: ${toolErrors.size} tool call${toolErrors.size === 1 ? '' : 's'} ended in error\n`);
      return 1;
    }
    return status === 'completed' || status === 'awaiting_input' ? 0 : 1;
  } finally {
    offSignals();
    client.close();
    await closeAll();
  }
}

/** Registers `stepwise run`. */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run a thread file once in a runner process and print the live execution tree.')
    .argument('<thread>', 'thread file (.json)')
    .option('--mode <mode>', 'step (one LLM step) or react (loop with tools)', 'step')
    .option('--max-turns <n>', 'ReAct turn cap')
    .option('--execute-tools [toolCallId...]', 'run pending tool calls (all, or the ones named) instead of an LLM step')
    .option('--events', 'print every envelope as one JSON line')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .option('--scenario <name>', 'use this scenario\'s variables instead of the thread\'s picked one')
    .option('--fresh', 'render every template anew instead of reusing the last run\'s frozen renders')
    .option('--dry-run', 'do not write the result back to the thread file (by default the run\'s messages are saved into it)')
    .option('--from-run <runId>', 'time travel: re-run this earlier run of the thread (with --from-call); its calls before that one are played back, not sent')
    .option('--from-call <n>', 'time travel: the model call of --from-run to run live from (1 = its first)')
    .action(async (file: string, opts: RunOptions) => {
      process.exitCode = await runThreadFile(file, opts);
    });
}
