/**
 * Provider registry: the built-in provider entries, lookup of a thread's `model.provider` among
 * the configured ones, and `createProvider` turning a `ProviderConfig` into a Provider.
 * `$ENV_NAME` api keys are resolved from the given environment; a missing key is not a throw
 * but a provider whose calls end with a clear error.
 *
 * The built-in `openai` entry uses Chat Completions (`openai-completions`): it is the API every
 * OpenAI-compatible server speaks too. Add an entry with `api: "openai-responses"` for the
 * Responses API.
 */
import { idleTimeoutProblem, type ProviderConfig } from '../../shared/protocol/runner';
import type { Provider } from './types';
import { failingProvider } from './live';
import { createOpenAIChatProvider } from './openai-chat';
import { createOpenAIResponsesProvider } from './openai-responses';
import { createAnthropicProvider } from './anthropic';
import { createScriptedProvider } from './scripted';
import { createReplayProvider } from './replay';
import { resolveApiKey } from '../../shared/protocol/provider-keys';

/**
 * Providers that exist without any settings (the same list as the host's
 * main/core/settings/providers.ts). OpenAI goes through the Responses API, its current one;
 * OpenAI-compatible servers are configured with `openai-completions`. User entries win.
 */
export const BUILTIN_PROVIDERS: ProviderConfig[] = [
  { id: 'openai', api: 'openai-responses', apiKey: '$OPENAI_API_KEY' },
  { id: 'anthropic', api: 'anthropic-messages', apiKey: '$ANTHROPIC_API_KEY' },
  { id: 'scripted', api: 'scripted' },
  { id: 'replay', api: 'replay' },
];

/** The configuration for provider `id`: the configured entries first, then the built-ins. */
export function resolveProviderConfig(id: string, configs: ProviderConfig[]): ProviderConfig | undefined {
  return configs.find((c) => c.id === id) ?? BUILTIN_PROVIDERS.find((c) => c.id === id);
}

/** Options beyond the configuration. */
export interface CreateProviderOptions {
  /** $STEPWISE_HOME for replay lookups; default `env.STEPWISE_HOME`. */
  home?: string;
  /** SDK retries (408/429/5xx/connection). Default 0 so errors surface at once. */
  retries?: number;
  /** Request timeout in ms. */
  timeoutMs?: number;
}

export { resolveApiKey };

/** Builds the provider for one configuration. Never throws: bad configurations fail each call. */
export function createProvider(config: ProviderConfig, env: NodeJS.ProcessEnv, opts: CreateProviderOptions = {}): Provider {
  switch (config.api) {
    case 'scripted':
      return createScriptedProvider();
    case 'replay': {
      const home = opts.home ?? env.STEPWISE_HOME;
      if (!home) return failingProvider({ message: 'The replay provider needs the Stepwise home folder (STEPWISE_HOME) to find recorded runs.', code: 'replay' });
      return createReplayProvider(home);
    }
    case 'openai-completions':
    case 'openai-responses':
    case 'anthropic-messages': {
      const idle = idleTimeoutProblem(config.idleTimeoutMs);
      // The host checks providers.json; a RunSpec from elsewhere is held to the same rule.
      if (idle) return failingProvider({ message: `Provider ${config.id}: idleTimeoutMs ${idle}. Fix it in settings/providers.json.`, code: 'bad_config' });
      const { key, error } = resolveApiKey(config, env);
      if (!key) return failingProvider({ message: error!, code: 'no_api_key' });
      const o = { id: config.id, apiKey: key, baseUrl: config.baseUrl, headers: config.headers, retries: opts.retries, timeoutMs: opts.timeoutMs, idleTimeoutMs: config.idleTimeoutMs };
      if (config.api === 'anthropic-messages') return createAnthropicProvider(o);
      return config.api === 'openai-responses' ? createOpenAIResponsesProvider(o) : createOpenAIChatProvider(o);
    }
    default:
      return failingProvider({
        message: `Provider ${config.id} has an unknown api "${String((config as { api?: unknown }).api)}"; use openai-completions, openai-responses, anthropic-messages, scripted or replay.`,
        code: 'bad_config',
      });
  }
}
