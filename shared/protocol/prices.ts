/**
 * What one model call cost. Prices come from the provider's `prices` in providers.json when set
 * there, else from the small table below for the vendors' own endpoints. A model in neither has
 * no cost: its usage shows tokens only, never a guessed price.
 *
 * The table: USD per million tokens, list prices of the standard tier (no batch, no priority, no
 * long-context surcharge), from the vendors' pricing pages:
 *   OpenAI    https://platform.openai.com/docs/pricing
 *   Anthropic https://docs.anthropic.com/en/docs/about-claude/pricing
 * as listed there on {@link PRICES_CHECKED}. Anthropic's `cacheWrite` is the 5-minute cache
 * write; a 1-hour write costs more and is then under-counted.
 */
import type { Usage } from './nodes';
import type { ProviderConfig } from './contract/runner-channel';

/** The date the table below was checked against the pricing pages named above. */
export const PRICES_CHECKED = '2026-12-01';

/** Prices of one model, USD per million tokens. */
export interface Price {
  input: number;
  output: number;
  /** Input tokens read from the prompt cache. */
  cacheRead?: number;
  /** Input tokens written to the prompt cache (Anthropic). */
  cacheWrite?: number;
}

const OPENAI: Record<string, Price> = {
  'gpt-5': { input: 1.25, cacheRead: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cacheRead: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cacheRead: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cacheRead: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cacheRead: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cacheRead: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cacheRead: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cacheRead: 0.075, output: 0.6 },
  o3: { input: 2, cacheRead: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cacheRead: 0.275, output: 4.4 },
};

const ANTHROPIC: Record<string, Price> = {
  'claude-opus-4-5': { input: 5, cacheWrite: 6.25, cacheRead: 0.5, output: 25 },
  'claude-opus-4-1': { input: 15, cacheWrite: 18.75, cacheRead: 1.5, output: 75 },
  'claude-opus-4': { input: 15, cacheWrite: 18.75, cacheRead: 1.5, output: 75 },
  'claude-sonnet-4-5': { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 },
  'claude-sonnet-4': { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 },
  'claude-3-7-sonnet': { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 },
  'claude-haiku-4-5': { input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cacheWrite: 1, cacheRead: 0.08, output: 4 },
};

/** A dated snapshot or alias suffix: `-2025-04-14`, `-20250929`, `-latest`. */
const SNAPSHOT = /-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * The table's price of `modelId` on the vendor `api`: an exact id, or one with a snapshot suffix
 * (`gpt-4.1-2025-04-14`, `claude-sonnet-4-5-20250929`). Nothing else matches: `o3-mini` is not `o3`.
 */
export function knownPrice(api: ProviderConfig['api'], modelId: string): Price | undefined {
  const table = api === 'anthropic-messages' ? ANTHROPIC : api === 'openai-responses' || api === 'openai-completions' ? OPENAI : undefined;
  if (!table) return undefined;
  const own = (id: string) => (Object.prototype.hasOwnProperty.call(table, id) ? table[id] : undefined);
  return own(modelId) ?? own(modelId.replace(SNAPSHOT, ''));
}

/** The vendors' own endpoints: the table applies there only (a compatible server sets its own prices). */
const OFFICIAL = /^https:\/\/api\.(openai|anthropic)\.com(\/|$)/;

/**
 * The price of `modelId` on provider `config`: its own `prices` entry, else the table's when the
 * provider is the vendor's own endpoint. Undefined: no known price.
 */
export function priceFor(config: ProviderConfig | undefined, modelId: string): Price | undefined {
  if (!config) return undefined;
  const own = config.prices && Object.prototype.hasOwnProperty.call(config.prices, modelId) ? config.prices[modelId] : undefined;
  if (own) return own;
  if (config.baseUrl !== undefined && !OFFICIAL.test(config.baseUrl)) return undefined;
  return knownPrice(config.api, modelId);
}

/**
 * Cost in USD of `usage` at `price`. On Anthropic (`api` anthropic-messages) the input count
 * excludes cache reads and writes, which are billed at their own rates; on OpenAI the input
 * count includes the cached tokens, billed at `cacheRead` instead of `input`.
 */
export function callCost(usage: Usage, price: Price, api: ProviderConfig['api']): number {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  if (api === 'anthropic-messages') {
    return (usage.inputTokens * price.input + read * (price.cacheRead ?? price.input) + write * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output) / 1e6;
  }
  const cached = Math.min(read, usage.inputTokens);
  return ((usage.inputTokens - cached) * price.input + cached * (price.cacheRead ?? price.input) + usage.outputTokens * price.output) / 1e6;
}

/** `usage` with its `costUsd` at the known price of `modelId` on `config`; unchanged when there is none. */
export function withCost(usage: Usage, config: ProviderConfig | undefined, modelId: string): Usage {
  const price = priceFor(config, modelId);
  if (!price || !config) return usage;
  return { ...usage, costUsd: callCost(usage, price, config.api) };
}
