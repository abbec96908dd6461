/**
 * LLM Space thread files → Thread (plus run records). The format as LLM Space
 * (github.com/llm-space/llm-space, packages/core/src/types) writes it:
 *
 *   { title?, model?: { provider, id, params: { maxTokens?, temperature?, reasoning?, responseType?, extra? } },
 *     context?: { systemPrompt?, tools?: Tool[], variables?: { [name]: definition },
 *                 variableVariants?: { active, variants: { [bucket]: { [name]: text } } },
 *                 snapshot?: { variables?: { [place]: { [name]: value } } }, messages?: Message[] },
 *     runHistory?: [{ id?, thread: <snapshot of the above>, usage?, timestamp }],
 *     evaluations?, evaluationRubrics?, modelName?, originalURL?,
 *     blobs?: { [sha256 hex]: base64 } }
 *   Tool      { type?: "function" | "mcp" | "builtin", name, description, parameters, strict?, … }
 *   user      { id, role: "user", content: (text | image)[] }
 *   assistant { id, role: "assistant", content: text[], thinking?, toolCalls?: [{ id,
 *               input: { name, arguments, partialArguments? }, output?: { content: (text | image)[], isError? } }],
 *               usage?: { input, output, cacheRead, cacheWrite, reasoning?, totalTokens, cost }, timing? }
 *   image     { type: "image" | "image_data" (older), mimeType, data: base64 | "blob:sha256:<hash>" }
 *
 * Messages and tools: ./llmspace-messages.ts; variables, frozen values and scenarios:
 * ./llmspace-variables.ts; run history and evaluations: ./llmspace-runs.ts. What Stepwise
 * cannot keep is listed in the result's `notes`.
 */
import type { Thread } from '../schema';
import { fail, finishThread, isObj, type ImportOptions, type ImportResult } from './common';
import { newId } from '../ids';
import { F, messagesOf, modelOf, toolsOf, type LlmSpaceCtx } from './llmspace-messages';
import { variablesOf } from './llmspace-variables';
import { evaluationsOf, rubricsOf, runsOf } from './llmspace-runs';

/** Converts an LLM Space thread file: the thread, its run records and notes. Throws ImportError naming the input pointer. */
export function importLlmSpaceDocument(json: unknown, opts: ImportOptions = {}): ImportResult {
  if (!isObj(json)) fail(F, '', 'expected a thread object');
  if (json.blobs !== undefined && !isObj(json.blobs)) fail(F, '/blobs', 'expected { [hash]: base64 }');
  const ctx: LlmSpaceCtx = { blobs: json.blobs ?? {}, notes: [] };
  const context = json.context === undefined ? {} : isObj(json.context) ? json.context : fail(F, '/context', 'expected an object');
  const messages = messagesOf(context.messages, '/context/messages', ctx);
  const tools = toolsOf(context.tools, '/context/tools');
  const variables = variablesOf(context, '/context', ctx);
  const id = newId();
  const runs = runsOf(json.runHistory, id, ctx);
  const evaluations = evaluationsOf(json.evaluations, runs.ids);
  const rubrics = rubricsOf(json.evaluationRubrics);
  if (typeof json.modelName === 'string') ctx.notes.push({ pointer: '/modelName', message: `the display name ${JSON.stringify(json.modelName)} is not kept (the model is ${modelOf(json.model).id || 'unset'})` });
  if (typeof json.originalURL === 'string') ctx.notes.push({ pointer: '/originalURL', message: `where the thread was shared from (${json.originalURL}) is not kept` });
  if (json.model === undefined) ctx.notes.push({ pointer: '/model', message: 'the thread has no model; the offline scripted model stands in' });
  const more: Partial<Pick<Thread, 'evaluations' | 'rubrics' | 'runRefs'>> = { runRefs: runs.refs };
  if (evaluations.length) more.evaluations = evaluations;
  if (rubrics.length) more.rubrics = rubrics;
  const thread = finishThread(F, {
    id,
    title: typeof json.title === 'string' && json.title ? json.title : opts.title,
    fallbackTitle: 'Imported LLM Space thread',
    model: modelOf(json.model),
    systemPrompt: typeof context.systemPrompt === 'string' ? context.systemPrompt : '',
    tools,
    variables,
    messages,
    more,
  });
  return { format: F, thread, runs: runs.runs, notes: ctx.notes };
}

/**
 * Converts an LLM Space thread file to the thread alone (a file opened in place): its run
 * history needs the host to write run records (`importLlmSpaceDocument`), so here it has no runRefs.
 */
export function importLlmSpace(json: unknown, opts: ImportOptions = {}): Thread {
  const { thread } = importLlmSpaceDocument(json, opts);
  return { ...thread, runRefs: [] };
}
