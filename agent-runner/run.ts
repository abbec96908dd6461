/**
 * One run, start to end, reported only as messages on `post` (docs/architecture.md#processes-and-state): the root `run`
 * node, the agent loop under it, the `run_result`, and `done`. Runs in-process too (tests,
 * the isolation benchmark's baseline); `index.ts` wraps it in its own process.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunSpec, RunnerToHost, ProviderConfig } from '../shared/protocol/runner';
import type { ModelConfig } from '../shared/thread/model-config';
import type { Thread } from '../shared/thread/schema';
import { newId } from '../shared/thread/ids';
import { fsErrorPhrase, isFsError } from '../shared/fs-errors';
import { resolveInside } from '../shared/workspace/paths.node.js';
import type { Provider } from './providers/types';
import type { ToolExecutor } from './tools/types';
import { RunEmitter, type EmitterOptions } from './emit/emitter';
import { RunTree } from './loop/tree';
import { AgentLoop } from './loop/agent-loop';
import { createScriptedProvider } from './providers/scripted';
import { agentToolExecutor, functionToolExecutor } from './tools/local-executors';
import { builtinPreview, createBuiltinExecutor } from './tools/builtin/executor';
import { skillToolExecutor } from './tools/skill-tool';
import type { LoopResult } from './loop/agent-loop';
import { withCost } from '../shared/protocol/prices';
import { runUsage } from '../shared/protocol/usage';

export interface RunOptions {
  /** Makes the provider for a model; the default knows the scripted model and the registry. */
  providerFor?: (model: ModelConfig, providers: ProviderConfig[]) => Provider;
  /** Extra executors (MCP) tried before the built-in ones. */
  executors?: ToolExecutor[];
  emitter?: EmitterOptions;
}

/** Handle of a started run. */
export interface RunHandle {
  /** Abort the run: deltas stop at once; every open node still gets its terminal update. */
  cancel(reason?: string): void;
  /** Deliver the user's answer for a node waiting in `awaiting_input`. */
  input(nodeId: string, value: unknown): void;
  /** Settles after `done` was posted. */
  done: Promise<void>;
}

function unknownProvider(model: ModelConfig, providers: ProviderConfig[]): Provider {
  return {
    async stream() {
      const known = ['scripted', ...providers.map((p) => p.id)].join(', ');
      return { content: [], toolCalls: [], stopReason: 'error', error: { message: `Unknown provider "${model.provider}". Known providers: ${known}. Add it in Settings → Providers.`, code: 'unknown_provider' } };
    },
  };
}

/**
 * Loads the thread an agent tool runs, `threadPath` being relative to the workspace: confined to
 * it (no `..`, no absolute path, no symbolic link leading out), names matched on disk after
 * Unicode NFC, and read like the host reads a thread file (foreign formats imported, older
 * versions migrated, validated), its templates rendered. Errors say what is wrong without any absolute path; the agent
 * loop puts `threadPath` before them.
 */
async function loadAgentThread(home: string, workspaceDir: string, threadPath: string): Promise<Thread> {
  const { parseThreadText, ThreadFileError } = await import('../shared/thread/thread-text');
  let text: string;
  try {
    text = await readFile(await resolveInside(path.resolve(workspaceDir), threadPath), 'utf8');
  } catch (err) {
    // Node's own message carries the absolute path.
    throw isFsError(err) ? new Error(fsErrorPhrase(err)) : err;
  }
  let thread: Thread;
  try {
    thread = parseThreadText(threadPath, text).thread;
  } catch (err) {
    throw err instanceof ThreadFileError ? new Error(err.detail) : err;
  }
  // Its templates, as the host renders a thread before a run (main/core/templates.ts), in a
  // template worker with the host's time and memory bounds.
  const { renderThread } = await import('../shared/template/thread-render');
  const { workspaceFileReader } = await import('../shared/template/files.node.js');
  const { threadWorkingDirectory } = await import('../shared/thread/working-directory.node.js');
  const { runnerTemplateEngine } = await import('./template-engine');
  const engine = runnerTemplateEngine((m) => console.warn(`stepwise runner: ${m}`));
  const r = await renderThread(thread, { read: workspaceFileReader(workspaceDir), workingDirectory: threadWorkingDirectory(thread, home, workspaceDir), now: new Date(), engine });
  return r.thread;
}

export function startRun(spec: RunSpec, post: (m: RunnerToHost) => void, opts: RunOptions = {}): RunHandle {
  const controller = new AbortController();
  const emitter = new RunEmitter(spec.runId, post, opts.emitter);
  const tree = new RunTree(spec.runId, emitter);
  const waiters = new Map<string, (v: unknown) => void>();
  const scripted = createScriptedProvider();
  const providerFor = (model: ModelConfig): Provider =>
    model.provider === 'scripted' ? scripted : (opts.providerFor?.(model, spec.providers) ?? unknownProvider(model, spec.providers));

  const rootId = tree.open({ kind: 'run', name: spec.mode === 'tool' ? 'tool step' : spec.mode === 'react' ? 'react' : 'step', input: { mode: spec.mode, threadId: spec.threadId, toolCallIds: spec.toolCallIds, ...(spec.fromRun ? { fromRun: spec.fromRun } : {}) } });
  const done = (async () => {
    // Only a time-travel or replay run reads recordings: loaded then, so an ordinary run's
    // process never loads the provider SDKs it does not use (tests/integration/desktop/runner-start.test.ts).
    const replays = spec.thread.model.provider === 'replay' || spec.providers.some((p) => p.id === spec.thread.model.provider && p.api === 'replay');
    const recorded = spec.fromRun || replays ? await (await import('./recorded-run')).recordedCalls(spec) : undefined;
    if (recorded && 'message' in recorded) return finishRun({ status: 'error', messages: [], toolOutputs: [], finalText: '', error: recorded });
    const loop = new AgentLoop(
      {
        tree,
        signal: controller.signal,
        providerFor,
        executors: [...(opts.executors ?? []), functionToolExecutor, agentToolExecutor, skillToolExecutor(spec.skills), createBuiltinExecutor(spec)],
        previewFor: (tool, call, thread) => builtinPreview(tool, call, thread, spec),
        providerIds: ['scripted', ...spec.providers.map((p) => p.id)],
        loadThread: (p) => loadAgentThread(spec.home, spec.workspaceDir, p),
        waitForInput: (nodeId) =>
          new Promise((resolve, reject) => {
            waiters.set(nodeId, resolve);
            controller.signal.addEventListener('abort', () => reject(new Error('The run was cancelled.')), { once: true });
          }),
        newId: () => newId('msg'),
        recorded,
        // spec.providers holds the built-ins merged with providers.json (the host's effectiveProviders).
        withCost: (model, usage) => withCost(usage, spec.providers.find((p) => p.id === model.provider), model.id),
      },
      spec.thread,
      rootId,
    );
    const r = await loop.run(spec.mode, { maxTurns: spec.maxTurns, toolCallIds: spec.toolCallIds }).catch((err: unknown) => ({
      status: 'error' as const,
      messages: [],
      toolOutputs: [],
      finalText: '',
      error: { message: `The agent loop failed: ${err instanceof Error ? err.message : String(err)}`, details: err instanceof Error ? err.stack : undefined },
    }));
    finishRun(r);
  })().catch((err: unknown) =>
    // Anything else that throws (reading a damaged recorded run) ends the run failed, not open for ever.
    finishRun({ status: 'error', messages: [], toolOutputs: [], finalText: '', error: { message: `The run failed: ${err instanceof Error ? err.message : String(err)}`, details: err instanceof Error ? err.stack : undefined } }),
  );

  function finishRun(r: LoopResult): void {
    const status = controller.signal.aborted ? 'cancelled' : r.status;
    // Close anything still open (cancel): terminal updates for every node, partials kept.
    for (const n of tree.openNodes()) {
      if (n.id !== rootId) tree.close(n.id, { status: status === 'cancelled' ? 'cancelled' : 'error' });
    }
    if (status === 'cancelled') {
      for (const n of [...tree.nodes.values()].filter((x) => x.status === 'awaiting_input')) tree.close(n.id, { status: 'cancelled' });
    }
    emitter.send({ v: 1, type: 'run_result', runId: spec.runId, status, messages: r.messages, toolOutputs: r.toolOutputs });
    // The run node carries the sum of its model calls' usage (and cost, when every call had one).
    const usage = runUsage([...tree.nodes.values()]);
    tree.close(rootId, { status, error: r.error, output: { messages: r.messages.length, toolOutputs: r.toolOutputs.length }, ...(usage ? { usage } : {}) });
    emitter.send({ v: 1, type: 'done', runId: spec.runId });
    emitter.close();
  }

  return {
    cancel: () => controller.abort(),
    input: (nodeId, value) => {
      const w = waiters.get(nodeId);
      if (w) {
        waiters.delete(nodeId);
        w(value);
      }
    },
    done,
  };
}
