/**
 * The executor of `builtin` thread tools (shared/thread/builtin-tools.ts lists them): runs them in the
 * run's own process, in the thread's working directory (created on first use), and computes
 * the preview an approval card shows before a held call runs.
 */
import { mkdir } from 'node:fs/promises';
import type { Thread } from '../../../shared/thread/schema';
import type { Tool } from '../../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput } from '../../../shared/thread/tool-output';
import { threadWorkingDirectory } from '../../../shared/thread/working-directory.node.js';
import type { ToolContext, ToolExecutor } from '../types';
import { BUILTIN_TOOLS, builtinNameOf } from '../../../shared/thread/builtin-tools';
import type { BuiltinPreview } from '../../../shared/tools/builtin-results';
import { globTool, grepTool, lsTool, readTool } from './files-read';
import { fileChangePreview, fileChangeTool } from './files-write';
import { bashTool } from './bash';
import { webFetchTool } from './web-fetch';
import { askUserQuestionTool, sleepTool, todoWriteTool } from './session-tools';
import { normalizeArguments } from './arguments';

/** Where the run is: the Stepwise home and the workspace folder (RunSpec). */
export interface BuiltinPlace {
  home: string;
  workspaceDir: string;
}

async function workingDirectory(thread: Thread, place: BuiltinPlace): Promise<string> {
  const cwd = threadWorkingDirectory(thread, place.home, place.workspaceDir);
  await mkdir(cwd, { recursive: true });
  return cwd;
}

/** Runs one built-in tool by its Stepwise name. */
async function run(name: string, args: Record<string, unknown>, ctx: ToolContext, place: BuiltinPlace): Promise<ToolOutput> {
  switch (name) {
    case 'todo_write':
      return todoWriteTool(args, ctx);
    case 'ask_user_question':
      return askUserQuestionTool(args, ctx);
    case 'sleep':
      return sleepTool(args, ctx.signal);
    case 'web_fetch':
      return webFetchTool(args, ctx.signal);
  }
  const cwd = await workingDirectory(ctx.thread, place);
  switch (name) {
    case 'read':
      return readTool(cwd, args);
    case 'ls':
      return lsTool(cwd, args);
    case 'glob':
      return globTool(cwd, args);
    case 'grep':
      return grepTool(cwd, args);
    case 'bash':
      return bashTool(cwd, args, ctx.signal);
    default:
      return fileChangeTool(name, cwd, args);
  }
}

/** The executor for `builtin` tools of runs at `place`. */
export function createBuiltinExecutor(place: BuiltinPlace): ToolExecutor {
  return {
    handles: (tool: Tool) => tool.type === 'builtin',
    async execute(tool: Tool, call: ToolCall, ctx: ToolContext): Promise<ToolOutput> {
      const name = tool.type === 'builtin' ? builtinNameOf(tool) : undefined;
      if (!name) return toolErrorOutput(`Unknown built-in tool "${tool.name}". Built-in tools: ${Object.keys(BUILTIN_TOOLS).join(', ')}.`);
      if (ctx.signal.aborted) return toolErrorOutput(`${name}: cancelled before it started.`);
      return run(name, normalizeArguments(name, call.arguments), ctx, place);
    },
  };
}

/**
 * What the approval card of a held built-in call shows (`attrs.preview`, a `BuiltinPreview`):
 * the diff of a file change, the command line of bash (`cwd` absolute), the URL of web_fetch;
 * undefined for other tools. Writes nothing.
 */
export async function builtinPreview(tool: Tool, call: ToolCall, thread: Thread, place: BuiltinPlace): Promise<BuiltinPreview | undefined> {
  if (tool.type !== 'builtin') return undefined;
  const name = builtinNameOf(tool);
  const args = name ? normalizeArguments(name, call.arguments) : call.arguments;
  if (name === 'web_fetch') return { kind: 'web_fetch', url: String(args.url ?? '') };
  if (name !== 'bash' && name !== 'write' && name !== 'edit' && name !== 'apply_patch') return undefined;
  const cwd = await workingDirectory(thread, place);
  if (name === 'bash') return { kind: 'bash', command: String(args.command ?? ''), cwd };
  return fileChangePreview(name, cwd, args);
}
