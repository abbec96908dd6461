/**
 * The built-in tools a thread can add as `{type:'builtin', name}`: their names, JSON Schemas
 * (sent to the model when the thread gives no `parameters`) and whether ReAct stops for the
 * person before running one (unless `settings.allowTools` names it).
 */

/** One built-in tool's definition. */
export interface BuiltinToolDef {
  description: string;
  parameters: Record<string, unknown>;
  /** Changes files, runs a command or reaches the network: ReAct stops for approval. */
  approval: boolean;
}

const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required, additionalProperties: false });
const str = (description: string) => ({ type: 'string', description });
const int = (description: string, minimum = 0) => ({ type: 'integer', minimum, description });

/** Every built-in tool by name. */
export const BUILTIN_TOOLS: Record<string, BuiltinToolDef> = {
  read: {
    description: 'Read a text file in the working directory; lines come numbered. Use offset/limit for a range.',
    parameters: obj({ path: str('File path, relative to the working directory.'), offset: int('First line to read, 1-based.', 1), limit: int('How many lines to read.', 1) }, ['path']),
    approval: false,
  },
  write: {
    description: 'Create or overwrite a text file in the working directory.',
    parameters: obj({ path: str('File path, relative to the working directory.'), content: str('The whole new content.') }, ['path', 'content']),
    approval: true,
  },
  edit: {
    description: 'Replace one exact occurrence of old_string with new_string in a file (all occurrences with replace_all).',
    parameters: obj(
      { path: str('File path, relative to the working directory.'), old_string: str('Exact text to replace; must occur once unless replace_all.'), new_string: str('Replacement text.'), replace_all: { type: 'boolean', description: 'Replace every occurrence.' } },
      ['path', 'old_string', 'new_string'],
    ),
    approval: true,
  },
  apply_patch: {
    description: 'Apply a unified diff (one or more files, paths relative to the working directory; a/ and b/ prefixes allowed).',
    parameters: obj({ patch: str('The unified diff.') }, ['patch']),
    approval: true,
  },
  ls: {
    description: 'List a folder of the working directory (folders end with "/").',
    parameters: obj({ path: str('Folder path, relative to the working directory; default ".".') }),
    approval: false,
  },
  glob: {
    description: 'Find files by glob pattern (e.g. "src/**/*.ts") under the working directory.',
    parameters: obj({ pattern: str('Glob pattern.'), path: str('Folder to search in; default ".".') }, ['pattern']),
    approval: false,
  },
  grep: {
    description: 'Search file contents by regular expression (JavaScript syntax); returns path:line: text.',
    parameters: obj({ pattern: str('Regular expression.'), path: str('Folder or file to search; default ".".'), glob: str('Only files matching this glob, e.g. "**/*.ts".'), ignore_case: { type: 'boolean' } }, ['pattern']),
    approval: false,
  },
  bash: {
    description: 'Run a shell command (bash -c) in the working directory, with a minimal environment.',
    parameters: obj({ command: str('The command line.'), timeout_ms: int('Kill it after this many ms (default 120000, at most 600000).', 1) }, ['command']),
    approval: true,
  },
  web_fetch: {
    description: 'Fetch an http(s) URL; HTML comes back as markdown when a converter is installed.',
    parameters: obj({ url: str('The http:// or https:// URL.') }, ['url']),
    approval: true,
  },
  todo_write: {
    description: "Replace the run's todo list.",
    parameters: obj(
      {
        items: {
          type: 'array',
          items: obj({ content: str('The task.'), status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] } }, ['content', 'status']),
        },
      },
      ['items'],
    ),
    approval: false,
  },
  ask_user_question: {
    description: 'Ask the person one or more questions and wait for the answers.',
    parameters: obj(
      {
        questions: {
          type: 'array',
          minItems: 1,
          items: obj({ id: str('Key of the answer.'), question: str('The question.'), options: { type: 'array', items: { type: 'string' } } }, ['id', 'question']),
        },
      },
      ['questions'],
    ),
    approval: false,
  },
  sleep: {
    description: 'Wait a number of seconds (at most 300).',
    parameters: obj({ seconds: { type: 'number', minimum: 0, maximum: 300 } }, ['seconds']),
    approval: false,
  },
};

/** The definition for a built-in tool name, or undefined for an unknown name. */
export function builtinTool(name: string): BuiltinToolDef | undefined {
  return Object.hasOwn(BUILTIN_TOOLS, name) ? BUILTIN_TOOLS[name] : undefined;
}

/**
 * Names LLM Space (and the imported provider requests) use for the same tools, mapped to
 * Stepwise's: an imported `builtin` tool with one of these names runs as the mapped tool.
 */
export const BUILTIN_ALIASES: Record<string, string> = {
  read_file: 'read',
  write_file: 'write',
  edit_file: 'edit',
  str_replace: 'edit',
  list_directory: 'ls',
  list_files: 'ls',
  search: 'grep',
  run_command: 'bash',
  shell: 'bash',
  fetch: 'web_fetch',
  webfetch: 'web_fetch',
  todowrite: 'todo_write',
  todo: 'todo_write',
  ask_user: 'ask_user_question',
  askuserquestion: 'ask_user_question',
};

/**
 * The built-in tool a `builtin` thread tool runs: `config.tool` when it names one, else the tool's
 * name (case-insensitive, LLM Space aliases mapped). Undefined when none matches.
 */
export function builtinNameOf(tool: { name: string; config?: Record<string, unknown> }): string | undefined {
  const chosen = typeof tool.config?.tool === 'string' ? tool.config.tool : tool.name;
  const lower = chosen.toLowerCase();
  if (builtinTool(lower)) return lower;
  const alias = BUILTIN_ALIASES[lower.replace(/[\s-]/g, '_')] ?? BUILTIN_ALIASES[lower.replace(/[\s_-]/g, '')];
  return alias && builtinTool(alias) ? alias : undefined;
}
