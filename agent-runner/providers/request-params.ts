/**
 * The model controls of a thread (`model.params`: reasoning, response format, tool choice,
 * parallel tool calls, stop sequences, seed, top-p) as each wire API spells them in its request
 * body. What an API lacks is left out (shared/thread/model-controls.ts says which and why; the
 * model section shows it). Spellings follow the request types of the official SDKs:
 * `openai` ChatCompletionCreateParams / ResponseCreateParams, `@anthropic-ai/sdk` MessageCreateParams.
 * Tool choice and parallel tool calls go only with tools: the APIs refuse them without.
 */
import type { ModelParams, ToolChoice } from '../../shared/thread/model-config';
import { chatResponseFormat, flatResponseFormat, sendsControl, type ControlApi, type ModelControl } from '../../shared/thread/model-controls';

type Body = Record<string, unknown>;

/** Whether `api` sends `control` as set in `p` (a control the API lacks is never sent). */
const sends = (api: ControlApi, p: ModelParams, control: ModelControl): boolean => sendsControl(api, p, control);

/** The request fields both OpenAI APIs spell alike: top_p and parallel_tool_calls. */
function openAiCommon(api: ControlApi, p: ModelParams, hasTools: boolean): Body {
  const out: Body = {};
  if (p.topP !== undefined && sends(api, p, 'topP')) out.top_p = p.topP;
  if (hasTools && p.parallelToolCalls !== undefined) out.parallel_tool_calls = p.parallelToolCalls;
  return out;
}

/** Chat Completions: `reasoning_effort`, `response_format`, `tool_choice`, `parallel_tool_calls`, `stop`, `seed`, `top_p`. */
export function chatControls(p: ModelParams, hasTools: boolean): Body {
  const api = 'openai-completions';
  const out: Body = openAiCommon(api, p, hasTools);
  if (p.reasoning?.effort && sends(api, p, 'effort')) out.reasoning_effort = p.reasoning.effort;
  if (p.responseFormat !== undefined) {
    const f = flatResponseFormat(p.responseFormat);
    // A shape Stepwise does not know is sent as written: the API names what is wrong with it.
    out.response_format = f ? chatResponseFormat(f) : p.responseFormat;
  }
  if (hasTools && p.toolChoice !== undefined) out.tool_choice = typeof p.toolChoice === 'string' ? p.toolChoice : { type: 'function', function: { name: p.toolChoice.name } };
  if (p.stopSequences?.length) out.stop = p.stopSequences;
  if (p.seed !== undefined) out.seed = p.seed;
  return out;
}

/** Responses: `reasoning.effort`, `text.format`, `tool_choice`, `parallel_tool_calls`, `top_p` (no stop, no seed). */
export function responsesControls(p: ModelParams, hasTools: boolean): Body {
  const api = 'openai-responses';
  const out: Body = openAiCommon(api, p, hasTools);
  if (p.reasoning?.effort && sends(api, p, 'effort')) out.reasoning = { effort: p.reasoning.effort, summary: 'auto' };
  if (p.responseFormat !== undefined) {
    const f = flatResponseFormat(p.responseFormat);
    out.text = { format: f ?? p.responseFormat };
  }
  if (hasTools && p.toolChoice !== undefined) out.tool_choice = typeof p.toolChoice === 'string' ? p.toolChoice : { type: 'function', name: p.toolChoice.name };
  return out;
}

/** Anthropic `tool_choice` of a Stepwise tool choice: auto, any (= required), none, or one tool. */
function anthropicToolChoice(c: ToolChoice): Body {
  if (c === 'required') return { type: 'any' };
  if (typeof c === 'string') return { type: c };
  return { type: 'tool', name: c.name };
}

/**
 * Anthropic Messages: `thinking` (adaptive, or enabled with `budget_tokens`), `output_config`
 * (`effort`, `format` as a JSON schema), `tool_choice` with `disable_parallel_tool_use`,
 * `stop_sequences` (no seed; no top_p in the SDK's parameters).
 */
export function anthropicControls(p: ModelParams, hasTools: boolean): Body {
  const api = 'anthropic-messages';
  const out: Body = {};
  if (p.reasoning?.adaptive) out.thinking = { type: 'adaptive' };
  else if (p.reasoning?.budgetTokens) out.thinking = { type: 'enabled', budget_tokens: p.reasoning.budgetTokens };
  const config: Body = {};
  if (p.reasoning?.effort && sends(api, p, 'effort')) config.effort = p.reasoning.effort;
  const f = flatResponseFormat(p.responseFormat);
  if (f?.type === 'json_schema') config.format = { type: 'json_schema', schema: f.schema };
  if (Object.keys(config).length) out.output_config = config;
  if (hasTools && (p.toolChoice !== undefined || p.parallelToolCalls === false)) {
    const choice = anthropicToolChoice(p.toolChoice ?? 'auto');
    if (p.parallelToolCalls === false && choice.type !== 'none') choice.disable_parallel_tool_use = true;
    out.tool_choice = choice;
  }
  if (p.stopSequences?.length) out.stop_sequences = p.stopSequences;
  return out;
}
