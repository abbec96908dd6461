/**
 * Every message between a template engine and its template worker process, once, by `type`
 * (docs/architecture.md#templates): the engine sends {@link ENGINE_TO_TEMPLATE_WORKER} on the
 * `template` channel of the worker's process link; the worker answers each render with one
 * {@link TEMPLATE_WORKER_TO_ENGINE} message. Each side checks what it receives against these
 * entries; shared/template/worker-protocol.ts derives its types here.
 */
import { Type as T } from '@sinclair/typebox';
import { unionOf, type MessageOf } from './define';

const Id = T.Integer({ minimum: 0 });

/** What reading one workspace path gave (shared/template/render.ts `FileLookup`). */
export const FileLookupSchema = T.Union([
  T.Object({ kind: T.Literal('file'), text: T.String() }),
  T.Object({ kind: T.Literal('missing') }),
  T.Object({ kind: T.Literal('refused'), message: T.String(), exists: T.Boolean() }),
]);

/** Engine → worker. */
export const ENGINE_TO_TEMPLATE_WORKER = {
  /** Render `source` in session `session`; `open` starts the session (sent again to a new worker); `files`: cache entries the worker has not seen. */
  render: T.Object({
    type: T.Literal('render'),
    id: Id,
    session: Id,
    open: T.Optional(T.Object({ values: T.Record(T.String(), T.Unknown()), problems: T.Record(T.String(), T.String()) })),
    files: T.Array(T.Tuple([T.String(), FileLookupSchema])),
    source: T.String(),
  }),
  /** Forget session `session`. */
  close: T.Object({ type: T.Literal('close'), session: Id }),
};

const Reply = { id: Id, wanted: T.Array(T.String()) };

/** Worker → engine: `ready` once started, then one reply per render (`wanted`: paths asked for and not in the cache). */
export const TEMPLATE_WORKER_TO_ENGINE = {
  ready: T.Object({ type: T.Literal('ready') }),
  /** The rendered text. */
  text: T.Object({ type: T.Literal('text'), ...Reply, text: T.String() }),
  /** A TemplateError's fields. */
  error: T.Object({ type: T.Literal('error'), ...Reply, detail: T.String(), line: T.Integer(), column: T.Integer(), file: T.Optional(T.String()) }),
  /** A bound passed (TemplateLimitError's message). */
  limit: T.Object({ type: T.Literal('limit'), ...Reply, message: T.String() }),
  /** Any other failure. */
  failure: T.Object({ type: T.Literal('failure'), ...Reply, message: T.String() }),
};

/** A message the engine sends. */
export type EngineToTemplateWorker = MessageOf<typeof ENGINE_TO_TEMPLATE_WORKER>;
/** A message the worker sends. */
export type TemplateWorkerToEngine = MessageOf<typeof TEMPLATE_WORKER_TO_ENGINE>;
/** Schema of any message the engine receives. */
export const TemplateWorkerToEngineSchema = unionOf(TEMPLATE_WORKER_TO_ENGINE);
