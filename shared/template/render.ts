/**
 * The template engine (docs/architecture.md#templates): Nunjucks, Jinja-compatible, with
 * autoescape off, no loader (`{% include %}`, `{% extends %}` and `{% import %}` find nothing),
 * member lookups of `constructor`, `__proto__` and `prototype` refused, plus two functions:
 * `@include(path)` / `include(path)` (a workspace file's contents, rendered in turn) and
 * `exists(path)`. Unknown names print as written (`{{name}}`), as LLM Space does.
 *
 * Rendering is synchronous over a cache of file lookups: a path not in the cache yet is noted
 * in `wanted` and reads as missing; the caller reads the wanted files and renders again
 * (shared/template/thread-render.ts), so the engine never touches the file system itself.
 */
import nunjucks from 'nunjucks';
import { IDENTIFIER_RE, INCLUDE_MACRO_RE, PLACEHOLDER_RE, TEMPLATE_MARKER_RE, lineColumnAt } from './syntax';

/** Deepest chain of includes (an include inside an included file is depth 2). */
export const MAX_INCLUDE_DEPTH = 10;

/** What reading one workspace path gave. `refused`: outside the workspace, too large, unreadable. */
export type FileLookup = { kind: 'file'; text: string } | { kind: 'missing' } | { kind: 'refused'; message: string; exists: boolean };

/** Where a template failed: 1-based line and column in the text rendered, `file` when inside an include. */
export class TemplateError extends Error {
  constructor(
    readonly detail: string,
    readonly line: number,
    readonly column: number,
    readonly file?: string,
  ) {
    super(`line ${line}, column ${column}${file ? ` of ${file}` : ''}: ${detail}`);
    this.name = 'TemplateError';
  }
}

/**
 * A render that went past a bound (time, memory, size, a `range` too long): `message` says which
 * and why, without a position (the whole place is refused).
 */
export class TemplateLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateLimitError';
  }
}

/** Most items one `range(…)` yields: more is refused before any is made. */
export const MAX_RANGE_ITEMS = 1_000_000;

/** Longest text one render may produce, in UTF-16 code units (16 Mi; far past any model's context). */
export const MAX_RENDER_LENGTH = 16 * 1024 * 1024;

/** What a render sees: variable values, variables that failed to resolve, and the file cache. */
export interface RenderScope {
  /** name → value: text, or a parsed JSON value. */
  values: Record<string, unknown>;
  /** name → why it has no value (bad JSON, a refused file); using the name is an error. */
  problems: Record<string, string>;
  /** Workspace-relative path → what reading it gave. */
  files: Map<string, FileLookup>;
  /** Paths asked for during the last render that were not in `files`. */
  wanted: Set<string>;
}

// Nunjucks is no sandbox: `"".constructor.constructor("code")()` would run code in the host,
// and included files and typed tool results are rendered too. Every member lookup of compiled templates goes through
// `runtime.memberLookup`; these keys read as undefined.
const BLOCKED_MEMBERS = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
// A bare name resolves against the context object, whose prototype would hand out `constructor`
// (Object: `constructor.getPrototypeOf`, `constructor.assign` could reach and change
// Object.prototype): a name only an object prototype has reads as undefined.
interface Runtime {
  memberLookup(obj: unknown, key: unknown): unknown;
  contextOrFrameLookup(context: { ctx: Record<string, unknown> }, frame: { lookup(name: string): unknown }, name: string): unknown;
}
const runtime = (nunjucks as unknown as { runtime: Runtime }).runtime;
const memberLookup = runtime.memberLookup;
const nameLookup = runtime.contextOrFrameLookup;
// The key is made a string once, and that string is what is looked up: an object key whose
// `toString` answers differently each time (`cycler().next`) cannot pass the check as one name
// and be looked up as another.
runtime.memberLookup = (obj, key) => {
  const name = typeof key === 'number' ? key : String(key);
  return BLOCKED_MEMBERS.has(String(name)) ? undefined : memberLookup(obj, name);
};
runtime.contextOrFrameLookup = (context, frame, name) => {
  if (!(name in Object.prototype)) return nameLookup(context, frame, name);
  const local = frame.lookup(name);
  return local !== undefined ? local : Object.hasOwn(context.ctx, name) ? context.ctx[name] : undefined;
};

/** Keywords, literals and globals a template may name that must never become `{{name}}` text. */
const RESERVED = new Set([
  'if', 'elif', 'else', 'endif', 'for', 'endfor', 'in', 'and', 'or', 'not', 'is', 'true', 'false', 'True', 'False',
  'none', 'None', 'null', 'set', 'endset', 'macro', 'endmacro', 'call', 'endcall', 'filter', 'endfilter', 'block',
  'endblock', 'extends', 'include', 'import', 'from', 'as', 'with', 'without', 'context', 'raw', 'endraw',
  'verbatim', 'endverbatim', 'loop', 'super', 'caller', 'range', 'cycler', 'joiner', 'exists',
]);
const TAG_RE = /\{\{([\s\S]*?)\}\}|\{%([\s\S]*?)%\}/g;
const NAME_RE = /[A-Za-z_][A-Za-z0-9_]*/g;
const STRING_RE = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;

/** The string a value prints as: JSON objects and arrays pretty-printed, like LLM Space's `{{ json_var }}`. */
export function printed(value: unknown): string {
  return value !== null && typeof value === 'object' ? JSON.stringify(value, null, 2) : String(value);
}

/** A parsed JSON variable whose whole value prints as pretty JSON inside a template too. */
function printable(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const copy = Array.isArray(value) ? [...value] : { ...(value as object) };
  Object.defineProperty(copy, 'toString', { value: () => printed(value), enumerable: false });
  return copy;
}

interface Nunjucks {
  lineno?: number;
  colno?: number;
  message: string;
}

/**
 * The message Nunjucks gives without its "(unknown path) [Line …]" prefix and the name of its
 * parser function (`parseIf: expected elif, else, or endif…` reads `expected elif, else, or endif…`).
 */
function bareMessage(err: Nunjucks): string {
  const lines = err.message.split('\n').map((l) => l.trim());
  const last = lines.filter((l) => l && !/^\(unknown path\)/.test(l) && l !== 'Template render error:').at(-1) ?? err.message;
  return last.replace(/^Error: /, '').replace(/^parse[A-Z]\w*: /, '');
}

/**
 * Nunjucks' `range(stop)` / `range(start, stop[, step])` (a step of 0 counts as 1), refusing
 * more than MAX_RANGE_ITEMS items before making any: `range(0, 1e9)` would hold the render's
 * thread for minutes and its memory.
 */
function boundedRange(start: number, stop?: number, step?: number): number[] {
  if (stop === undefined) [start, stop, step] = [0, start, 1];
  else if (!step) step = 1;
  const count = Math.ceil((Number(stop) - Number(start)) / Number(step));
  if (count > MAX_RANGE_ITEMS) throw new Error(`range(${start}, ${stop}, ${step}) has more than ${MAX_RANGE_ITEMS} items: a loop that long is refused`);
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop && out.length < MAX_RANGE_ITEMS; i += step) out.push(i);
  else for (let i = start; i > stop && out.length < MAX_RANGE_ITEMS; i += step) out.push(i);
  return out;
}

/** Renders template text against one scope; one instance per render of a thread. */
export class TemplateRenderer {
  private readonly env: nunjucks.Environment;
  private depth = 0;
  /** The innermost failure inside an include, reported instead of Nunjucks' wrapping of it. */
  private failure: TemplateError | undefined;
  private readonly including: string[] = [];

  constructor(private readonly scope: RenderScope) {
    this.env = new nunjucks.Environment([], { autoescape: false, dev: true, throwOnUndefined: false });
    this.env.addGlobal('include', (p: unknown) => this.include(p));
    this.env.addGlobal('exists', (p: unknown) => this.exists(p));
    this.env.addGlobal('range', boundedRange);
  }

  /** The rendered text. Text without template markers only gets its known `{{name}}`s replaced. Throws TemplateError. */
  render(source: string): string {
    this.failure = undefined;
    let text: string;
    try {
      text = this.renderSource(source);
    } catch (err) {
      throw this.failure ?? err;
    }
    if (text.length > MAX_RENDER_LENGTH) throw new TemplateLimitError(`the rendered text is longer than ${MAX_RENDER_LENGTH / 1024 / 1024} Mi characters`);
    return text;
  }

  private renderSource(source: string): string {
    if (!TEMPLATE_MARKER_RE.test(source)) return this.substitute(source);
    // `{{@include(` → `{{ include(`: the same length, so lines and columns stay those of the source.
    const text = source.replace(INCLUDE_MACRO_RE, (_m, space: string) => `{{${space} include(`);
    const context = this.contextFor(text);
    let template: nunjucks.Template;
    try {
      template = new nunjucks.Template(text, this.env, undefined, true);
    } catch (err) {
      const e = err as Nunjucks; // the parser's positions are 1-based; none = at the end of the text
      const end = lineColumnAt(source, source.length);
      throw this.located(bareMessage(e), e.lineno ?? end.line, e.colno ?? end.column);
    }
    try {
      return template.render(context);
    } catch (err) {
      if (this.failure) throw this.failure;
      const e = err as Nunjucks; // compiled code's positions are 0-based
      throw this.located(bareMessage(e), (e.lineno ?? 0) + 1, (e.colno ?? 0) + 1);
    }
  }

  private located(detail: string, line: number, column: number): TemplateError {
    return new TemplateError(detail, line, column, this.including.at(-1));
  }

  /** `{{name}}` for a known name → its value; anything else stays as written. */
  private substitute(source: string): string {
    return source.replace(PLACEHOLDER_RE, (whole: string, name: string, index: number) => {
      if (!IDENTIFIER_RE.test(name)) return whole;
      const problem = Object.hasOwn(this.scope.problems, name) ? this.scope.problems[name] : undefined;
      if (problem !== undefined) {
        const at = lineColumnAt(source, index);
        throw this.located(problem, at.line, at.column);
      }
      return Object.hasOwn(this.scope.values, name) ? printed(this.scope.values[name]) : whole;
    });
  }

  /** The known values, plus `"{{name}}"` for every other name the template mentions. */
  private contextFor(text: string): Record<string, unknown> {
    const context: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(this.scope.values)) context[k] = printable(v);
    for (const m of text.matchAll(TAG_RE)) {
      const inner = (m[1] ?? m[2] ?? '').replace(STRING_RE, ' ');
      for (const [name] of inner.matchAll(NAME_RE)) {
        if (name.startsWith('__') || RESERVED.has(name) || name in Object.prototype || Object.hasOwn(context, name)) continue;
        const problem = Object.hasOwn(this.scope.problems, name) ? this.scope.problems[name] : undefined;
        if (problem !== undefined) {
          const at = lineColumnAt(text, (m.index ?? 0) + 2);
          throw this.located(problem, at.line, at.column);
        }
        context[name] = `{{${name}}}`;
      }
    }
    return context;
  }

  private lookup(p: unknown): FileLookup | undefined {
    if (typeof p !== 'string' || !p) return { kind: 'missing' };
    const hit = this.scope.files.get(p);
    if (!hit) this.scope.wanted.add(p);
    return hit;
  }

  private include(p: unknown): string {
    const hit = this.lookup(p);
    if (!hit || hit.kind === 'missing') return '';
    const path = p as string;
    if (hit.kind === 'refused') throw this.fail(`@include("${path}"): ${hit.message}`);
    if (this.depth >= MAX_INCLUDE_DEPTH) throw this.fail(`@include("${path}"): includes nest more than ${MAX_INCLUDE_DEPTH} deep`);
    this.depth++;
    this.including.push(path);
    try {
      return this.renderSource(hit.text);
    } catch (err) {
      if (err instanceof TemplateError) this.failure ??= err;
      throw err;
    } finally {
      this.including.pop();
      this.depth--;
    }
  }

  private exists(p: unknown): boolean {
    const hit = this.lookup(p);
    if (hit?.kind === 'refused' && !hit.exists) throw this.fail(`exists("${String(p)}"): ${hit.message}`);
    return hit?.kind === 'file' || (hit?.kind === 'refused' && hit.exists);
  }

  /** An error thrown from inside a template function; Nunjucks adds the call's position. */
  private fail(message: string): Error {
    return new Error(message);
  }
}

/**
 * One render of a thread's texts against one scope, in this thread or elsewhere (the host renders
 * in a worker thread: shared/template/worker-engine.node.ts). `render` adds the paths it asked for and
 * did not find in `scope.files` to `scope.wanted`; it throws TemplateError or TemplateLimitError.
 */
export interface TemplateSession {
  render(source: string): Promise<string>;
  /** Frees what the session holds; it renders nothing after. */
  close(): void;
}

/** Opens a session over `scope`. */
export type TemplateEngine = (scope: RenderScope) => TemplateSession;

/** Renders on the caller's thread (the agent-runner, tests, tools): no time bound. */
export const inProcessEngine: TemplateEngine = (scope) => {
  const renderer = new TemplateRenderer(scope);
  return { render: async (source) => renderer.render(source), close: () => undefined };
};

