/** Helpers over a thread's messages and tools for the agent loop. */
import type { Thread } from '../../shared/thread/schema';
import type { Tool } from '../../shared/thread/tools';
import type { ToolSpec } from '../providers/types';
import { BUILTIN_TOOLS, builtinNameOf } from '../../shared/thread/builtin-tools';

export { pendingToolCalls } from '../../shared/thread/tool-calls';

/** The tool definition a call refers to, by the name the model sees. */
export function findTool(thread: Thread, name: string): Tool | undefined {
  return thread.context.tools.find((t) => t.name === name);
}

/** The tools as the model sees them. */
export function toolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((t) => {
    const parameters =
      t.type === 'mcp' ? t.inputSchema : t.type === 'function' ? t.parameters : (t.parameters ?? toolParameters(t));
    const spec: ToolSpec = { name: t.name, parameters };
    const description = t.description ?? (t.type === 'builtin' ? builtinDef(t)?.description : undefined);
    if (description) spec.description = description;
    if (t.type === 'function' && t.custom) spec.custom = t.custom;
    if (t.type === 'function' && t.strict !== undefined) spec.strict = t.strict;
    return spec;
  });
}

function builtinDef(t: Tool) {
  const name = t.type === 'builtin' ? builtinNameOf(t) : undefined;
  return name ? BUILTIN_TOOLS[name] : undefined;
}

/** The JSON Schema an agent or built-in tool without its own `parameters` takes. */
export function toolParameters(t: Tool): Record<string, unknown> {
  return builtinDef(t)?.parameters ?? defaultParameters(t.type);
}

/** The JSON Schema a tool without its own takes (agent tools: `{ input: string }`). */
export function defaultParameters(type: Tool['type']): Record<string, unknown> {
  if (type === 'agent') {
    return { type: 'object', properties: { input: { type: 'string', description: 'The task for the agent.' } }, required: ['input'] };
  }
  return { type: 'object', properties: {} };
}
