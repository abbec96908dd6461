/**
 * Arguments of imported built-in tools, in the names Stepwise's tools read. An imported
 * thread (LLM Space, Claude-Code-style tools) keeps its own `parameters`, so the model sends
 * e.g. `file_path`, `todos`, `timeout`, or questions whose options are `{label}` objects.
 */

type Args = Record<string, unknown>;

const RENAMES: Record<string, Record<string, string>> = {
  read: { file_path: 'path' },
  write: { file_path: 'path' },
  edit: { file_path: 'path' },
  ls: { file_path: 'path', directory: 'path' },
  glob: { directory: 'path' },
  grep: { directory: 'path', '-i': 'ignore_case' },
  bash: { timeout: 'timeout_ms', cmd: 'command' },
  apply_patch: { input: 'patch', diff: 'patch' },
  todo_write: { todos: 'items' },
};

/** `args` with the names of `tool`'s own parameters; Stepwise's own names are left as they are. */
export function normalizeArguments(tool: string, args: Args): Args {
  const out: Args = { ...args };
  for (const [from, to] of Object.entries(RENAMES[tool] ?? {})) {
    if (out[to] === undefined && out[from] !== undefined) out[to] = out[from];
  }
  if (tool === 'ask_user_question' && Array.isArray(out.questions)) {
    out.questions = out.questions.map((q: unknown, i: number) => {
      const o = (q && typeof q === 'object' ? q : { question: String(q) }) as Args;
      const options = Array.isArray(o.options) ? o.options.map((x: unknown) => (x && typeof x === 'object' ? String((x as Args).label ?? '') : String(x))) : undefined;
      return { id: typeof o.id === 'string' && o.id ? o.id : typeof o.header === 'string' && o.header ? o.header : `q${i + 1}`, question: String(o.question ?? ''), ...(options ? { options } : {}) };
    });
  }
  return out;
}
