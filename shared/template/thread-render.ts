/**
 * Renders every place of a thread before a run (docs/architecture.md#templates): the places the
 * user authored — the system prompt, each user message's text parts, each assistant message the
 * user wrote (no `model`) and each tool result the user typed (`typed`). Text a model wrote or a
 * tool run produced, and every text of a `settings.literal` thread, is sent as written, as are
 * places with no template syntax, byte for byte. A place frozen by an earlier run (frozen.ts) is
 * sent as it was unless its source or the variables changed, or `fresh` is asked. The first
 * template error stops the render and names the place, line and column.
 */
import type { Thread } from '../thread/schema';
import { frozenText, placeKey, type FrozenRenders, type Place } from './frozen';
import { TemplateError, TemplateLimitError, inProcessEngine, type FileLookup, type RenderScope, type TemplateEngine, type TemplateSession } from './render';
import { hasTemplateSyntax } from './syntax';
import { applyFileVariables, resolveVariables, type VariableSources } from './variables';

/** Most distinct files one render of a thread reads (includes, `exists` and file variables). */
export const MAX_TEMPLATE_FILES = 100;

/** Reads a workspace-relative path for the templates (shared/template/files.node.ts under Node). */
export type TemplateFileReader = (relPath: string) => Promise<FileLookup>;

export interface ThreadRenderOptions extends VariableSources {
  read: TemplateFileReader;
  /** The renders of the run before, reused where still valid. */
  frozen?: FrozenRenders;
  /** Render every place anew, ignoring `frozen`. */
  fresh?: boolean;
  /** Render only this place (a place key); the others are left as they are. */
  only?: string;
  /** Where the texts are rendered; default this thread (`inProcessEngine`). */
  engine?: TemplateEngine;
}

/** A template error at a place; `message` reads `<place>, line L, column C: <detail>`. */
export class PlaceError extends Error {
  constructor(
    readonly place: string,
    readonly error: TemplateError | { detail: string; line?: undefined; column?: undefined; file?: undefined },
  ) {
    super(error instanceof TemplateError ? `${place}, ${error.message}` : `${place}: ${error.detail}`);
    this.name = 'PlaceError';
  }
}

/** The rendered thread, the renders to freeze, and which places were sent frozen. */
export interface ThreadRender {
  thread: Thread;
  renders: FrozenRenders;
  /** Keys of the places whose text came from `frozen`. */
  reused: string[];
  scenario?: string;
}

/** One place of a thread and its text parts. */
export interface ThreadPlace {
  place: Place;
  texts: { get(): string; set(t: string): void }[];
  /**
   * The user authored it, so it is a template: the system prompt, a user message, an assistant
   * message without `model` (written by hand, not by a model), a tool result with `typed`.
   * False for a model's message or a tool run's result: those are sent as written.
   */
  authored: boolean;
}

/** Every place of `thread` with its text parts, in document order. */
export function placesOf(thread: Thread): ThreadPlace[] {
  const out: ThreadPlace[] = [];
  const ctx = thread.context;
  out.push({ place: { kind: 'systemPrompt' }, texts: [{ get: () => ctx.systemPrompt, set: (t) => void (ctx.systemPrompt = t) }], authored: true });
  for (const m of ctx.messages) {
    const parts = (m.content as { type: string; text?: string }[]).filter((p) => p.type === 'text') as { text: string }[];
    const authored = m.role === 'user' || !m.model;
    out.push({ place: { kind: 'message', messageId: m.id }, texts: parts.map((p) => ({ get: () => p.text, set: (t) => void (p.text = t) })), authored });
    if (m.role !== 'assistant') continue;
    for (const c of m.toolCalls ?? []) {
      const outParts = (c.output?.content ?? []).filter((p) => p.type === 'text') as { text: string }[];
      out.push({ place: { kind: 'tool', toolCallId: c.id }, texts: outParts.map((p) => ({ get: () => p.text, set: (t) => void (p.text = t) })), authored: c.output?.typed === true });
    }
  }
  return out;
}

/** The places of `thread` that are templates: none for a `settings.literal` thread. */
export function templatePlacesOf(thread: Thread): ThreadPlace[] {
  return thread.settings?.literal ? [] : placesOf(thread).filter((p) => p.authored);
}

/** Renders one text against `scope`, reading the files it asks for between passes. */
async function renderWithFiles(session: TemplateSession, scope: RenderScope, source: string, read: TemplateFileReader): Promise<string> {
  for (;;) {
    scope.wanted.clear();
    let out: string | undefined;
    let failure: unknown;
    try {
      out = await session.render(source);
    } catch (err) {
      if (err instanceof TemplateLimitError) throw err;
      failure = err;
    }
    // An error while files were still missing may come from the missing text: read, then retry.
    if (scope.wanted.size === 0) {
      if (failure !== undefined) throw failure;
      return out as string;
    }
    if (scope.files.size + scope.wanted.size > MAX_TEMPLATE_FILES) {
      throw new TemplateError(`the templates read more than ${MAX_TEMPLATE_FILES} files`, 1, 1);
    }
    await loadFiles(scope, [...scope.wanted], read);
  }
}

async function loadFiles(scope: RenderScope, paths: string[], read: TemplateFileReader): Promise<void> {
  await Promise.all(paths.map(async (p) => scope.files.set(p, await read(p))));
}

/**
 * Renders `thread` (not changed; the result is a copy). Throws PlaceError on a template error
 * (place `variables` for an unknown scenario).
 */
export async function renderThread(thread: Thread, opts: ThreadRenderOptions): Promise<ThreadRender> {
  const copy = structuredClone(thread);
  let vars;
  try {
    vars = resolveVariables(copy, opts);
  } catch (err) {
    throw new PlaceError('scenario', { detail: (err as Error).message });
  }
  const scope: RenderScope = { values: vars.values, problems: vars.problems, files: new Map(), wanted: new Set() };
  const fileVars = Object.values(vars.files);
  if (fileVars.length > MAX_TEMPLATE_FILES) throw new PlaceError('variables', { detail: `more than ${MAX_TEMPLATE_FILES} file variables` });
  await loadFiles(scope, fileVars, opts.read);
  applyFileVariables(vars, (p) => scope.files.get(p) ?? { kind: 'missing' });
  const session = (opts.engine ?? inProcessEngine)(scope);
  try {
    return { thread: copy, ...(await renderPlaces(copy, session, scope, vars.inputs, opts)), ...(vars.scenario ? { scenario: vars.scenario } : {}) };
  } finally {
    session.close();
  }
}

/** Renders the template places of `copy` in place; the renders to freeze and the places reused. */
async function renderPlaces(copy: Thread, session: TemplateSession, scope: RenderScope, inputs: string, opts: ThreadRenderOptions): Promise<Pick<ThreadRender, 'renders' | 'reused'>> {
  const renders: FrozenRenders = { inputs, places: {} };
  const reused: string[] = [];
  for (const { place, texts } of templatePlacesOf(copy)) {
    const key = placeKey(place);
    if (opts.only !== undefined && key !== opts.only) continue;
    const source = texts.map((t) => t.get());
    if (!source.some(hasTemplateSyntax)) continue;
    let text = opts.fresh ? undefined : frozenText(opts.frozen, inputs, key, source);
    if (text) reused.push(key);
    else {
      text = [];
      for (const s of source) {
        try {
          text.push(await renderWithFiles(session, scope, s, opts.read));
        } catch (err) {
          if (err instanceof TemplateError) throw new PlaceError(key, err);
          if (err instanceof TemplateLimitError) throw new PlaceError(key, { detail: err.message });
          throw err;
        }
      }
    }
    texts.forEach((t, i) => t.set(text[i]));
    renders.places[key] = { source, text };
  }
  return { renders, reused };
}
