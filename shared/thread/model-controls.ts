/**
 * Which model controls (shared/thread/schema.ts ModelParamsSchema) each wire API takes, and in
 * what form: one table for the request builders (agent-runner/providers/request-params.ts) and
 * the playground's model section, which hides or disables a control its API lacks and says why.
 * Sources: the request parameter types of the `openai` (Chat Completions, Responses) and
 * `@anthropic-ai/sdk` (Messages) clients this build ships.
 */
import type { ModelParams, ReasoningEffort } from './model-config';

/** The wire APIs with model controls. */
export type ControlApi = 'openai-completions' | 'openai-responses' | 'anthropic-messages';

/** The controls beyond temperature and max tokens. */
export type ModelControl = 'effort' | 'thinking' | 'responseFormat' | 'toolChoice' | 'parallelToolCalls' | 'stopSequences' | 'seed' | 'topP';

/** Response format kinds. */
export type ResponseFormatKind = 'text' | 'json_object' | 'json_schema';

/** What one API takes. */
export interface ApiControls {
  /** Reasoning effort levels it accepts (empty: no effort control). */
  efforts: readonly ReasoningEffort[];
  /** Response format kinds it accepts (empty: none). */
  responseFormats: readonly ResponseFormatKind[];
  /** Why a control is missing, for each control the API lacks. */
  missing: Partial<Record<ModelControl, string>>;
}

/** The controls of each API; a control named in `missing` is not sent. */
export const API_CONTROLS: Record<ControlApi, ApiControls> = {
  'openai-completions': {
    efforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'],
    responseFormats: ['text', 'json_object', 'json_schema'],
    missing: { thinking: 'Chat Completions has no thinking budget: use reasoning effort.' },
  },
  'openai-responses': {
    efforts: ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'],
    responseFormats: ['text', 'json_object', 'json_schema'],
    missing: {
      thinking: 'The Responses API has no thinking budget: use reasoning effort.',
      stopSequences: 'The Responses API has no stop sequences.',
      seed: 'The Responses API has no seed.',
    },
  },
  'anthropic-messages': {
    efforts: ['low', 'medium', 'high', 'xhigh', 'max'],
    responseFormats: ['text', 'json_schema'],
    missing: {
      seed: 'Anthropic Messages has no seed.',
      topP: 'The Anthropic Messages parameters of this SDK have no top_p.',
    },
  },
};

/** The controls of `api`, or null for an API without model controls (scripted, replay, unknown). */
export function controlsOf(api: string | undefined): ApiControls | null {
  return api && Object.prototype.hasOwnProperty.call(API_CONTROLS, api) ? API_CONTROLS[api as ControlApi] : null;
}

/** A response format in one flat shape: what the builders render per API. */
export type FlatResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `params.responseFormat` read in either OpenAI shape (Chat `{type:'json_schema', json_schema:{…}}`
 * or Responses `{type:'json_schema', name, schema}`); undefined when absent or not one of them.
 */
export function flatResponseFormat(rf: unknown): FlatResponseFormat | undefined {
  if (!isObject(rf)) return undefined;
  if (rf.type === 'text' || rf.type === 'json_object') return { type: rf.type };
  if (rf.type !== 'json_schema') return undefined;
  const inner = isObject(rf.json_schema) ? rf.json_schema : rf;
  const schema = isObject(inner.schema) ? inner.schema : {};
  return {
    type: 'json_schema',
    name: typeof inner.name === 'string' && inner.name ? inner.name : 'response',
    schema,
    ...(typeof inner.strict === 'boolean' ? { strict: inner.strict } : {}),
    ...(typeof inner.description === 'string' ? { description: inner.description } : {}),
  };
}

/** The Chat Completions `response_format` of a flat format (the shape the thread file keeps). */
export function chatResponseFormat(f: FlatResponseFormat): Record<string, unknown> {
  if (f.type !== 'json_schema') return { type: f.type };
  const { type, ...json_schema } = f;
  return { type, json_schema };
}

/**
 * The controls set in `params` that `api` does not take, each with why: the model section lists
 * them, so a value kept from another provider is never silently dropped.
 */
export function unsentControls(api: string | undefined, params: ModelParams): { control: ModelControl; why: string }[] {
  const c = controlsOf(api);
  if (!c) return [];
  const set: Record<ModelControl, boolean> = {
    effort: params.reasoning?.effort !== undefined,
    thinking: !!params.reasoning?.adaptive || !!params.reasoning?.budgetTokens,
    responseFormat: params.responseFormat !== undefined,
    toolChoice: params.toolChoice !== undefined,
    parallelToolCalls: params.parallelToolCalls !== undefined,
    stopSequences: !!params.stopSequences?.length,
    seed: params.seed !== undefined,
    topP: params.topP !== undefined,
  };
  const out: { control: ModelControl; why: string }[] = [];
  for (const control of Object.keys(set) as ModelControl[]) {
    if (!set[control]) continue;
    const why = c.missing[control];
    if (why) out.push({ control, why });
  }
  const effort = params.reasoning?.effort;
  if (effort && !c.efforts.includes(effort)) out.push({ control: 'effort', why: `Reasoning effort "${effort}" is not one this API takes (${c.efforts.join(', ')}).` });
  const rf = flatResponseFormat(params.responseFormat);
  if (rf && !c.responseFormats.includes(rf.type)) out.push({ control: 'responseFormat', why: `Response format "${rf.type}" is not one this API takes.` });
  return out;
}

/** True when `api` sends `control` with the value `params` holds. */
export function sendsControl(api: ControlApi, params: ModelParams, control: ModelControl): boolean {
  return !unsentControls(api, params).some((u) => u.control === control);
}
