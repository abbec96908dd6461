/**
 * Template syntax as the editors and the renderer recognise it, without the template engine
 * (the renderer process imports this for highlighting and completion). The rules follow LLM
 * Space (its `template-render.ts`): text is a template when it holds a block tag `{% … %}`, the
 * macro form `{{@ … }}`, or a `{{ … }}` expression with member access, indexing, a filter or a
 * call; any other `{{name}}` is a plain placeholder, replaced when `name` is a known variable
 * and left as written otherwise.
 */

/** Text matching this is rendered by the template engine; other text only gets `{{name}}` substitution. */
export const TEMPLATE_MARKER_RE = /\{%|\{\{\s*@|\{\{[^{}]*[.[|(]/;

/** A plain placeholder `{{ name }}`; group 1 is what stands between the braces, trimmed. */
export const PLACEHOLDER_RE = /\{\{\s*([^{}]+?)\s*\}\}/g;

/** A variable name: a JavaScript-style identifier, as Nunjucks/Jinja accept. */
export const IDENTIFIER_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The `{{@include("path")}}` macro; group 1 is the whitespace after `{{`. */
export const INCLUDE_MACRO_RE = /\{\{(\s*)@include\s*\(/g;

/** True when `text` holds any template syntax at all (`{{`, `{%` or `{#`). */
export function hasTemplateSyntax(text: string): boolean {
  return /\{[{%#]/.test(text);
}

/** The block tags the editors complete after `{%`. */
export const BLOCK_TAGS = ['if', 'elif', 'else', 'endif', 'for', 'endfor', 'set', 'raw', 'endraw'] as const;

/** Names the renderer provides besides the thread's variables. */
export const BUILTIN_VARIABLES = ['current_date', 'current_working_directory', 'thread_title', 'available_skills'] as const;

/** Formats of `current_date` (LLM Space's): pick one by giving the variable `current_date` that value. */
export const CURRENT_DATE_FORMATS = ['readable-date', 'iso-date', 'local-date-time'] as const;
export type CurrentDateFormat = (typeof CURRENT_DATE_FORMATS)[number];

/** 1-based line and column of offset `index` in `text`. */
export function lineColumnAt(text: string, index: number): { line: number; column: number } {
  const before = text.slice(0, index);
  const line = before.split('\n').length;
  return { line, column: index - before.lastIndexOf('\n') };
}
