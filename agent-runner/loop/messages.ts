/** Helpers over a thread's messages and tools for the agent loop. */
import type { Thread, Tool } from '../../shared/thread/schema';
import type { ToolSpec } from '../providers/types';

export { pendingToolCalls } from '../../shared/thread/tool-calls';

/** The tool definition a call refers to, by the name the model sees. */
export function findTool(thread: Thread, name: string): Tool | undefined {
  return thread.context.tools.find((t) => t.name === name);
}

/** The tools as the model sees them. */
export function toolSpecs(tools: Tool[]): ToolSpec[] {
  return tools.map((t) => {
    const parameters =
      t.type === 'mcp' ? t.inputSchema : t.type === 'function' ? t.parameters : (t.parameters ?? defaultParameters(t.type));
    const spec: ToolSpec = { name: t.name, parameters };
    if (t.description) spec.description = t.description;
    return spec;
  });
}

/** The JSON Schema a tool without its own takes (agent tools: `{ input: string }`). */
export function defaultParameters(type: Tool['type']): Record<string, unknown> {
  if (type === 'agent') {
    return { type: 'object', properties: { input: { type: 'string', description: 'The task for the agent.' } }, required: ['input'] };
  }
  return { type: 'object', properties: {} };
}

/** Replace `{{name}}` with the thread's variables. Unknown names stay as they are. */
export function applyVariables(text: string, variables: Record<string, string> | undefined): string {
  if (!variables) return text;
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => (name in variables ? variables[name] : whole));
}
