/**
 * How a provider entry's API key is found (the runner's registry and the host's connection test
 * use the same rule): a literal, or `$NAME` read from the environment. Never logged, never sent
 * to a client.
 */
import type { ProviderConfig } from './runner';

const DEFAULT_KEY_ENV: Partial<Record<ProviderConfig['api'], string>> = {
  'openai-completions': 'OPENAI_API_KEY',
  'openai-responses': 'OPENAI_API_KEY',
  'anthropic-messages': 'ANTHROPIC_API_KEY',
};

/**
 * The API key of a configuration: a literal, or `$NAME` read from `env`. Without a configured
 * key, a provider on the official endpoint tries the API's usual variable (OPENAI_API_KEY,
 * ANTHROPIC_API_KEY) and one with its own base URL (a local server) gets a placeholder key. `error` says what to do.
 */
export function resolveApiKey(config: ProviderConfig, env: Readonly<Record<string, string | undefined>>): { key?: string; error?: string } {
  const ref = config.apiKey?.trim();
  // The usual variable only for the provider's own endpoint: never send an OpenAI key elsewhere.
  const varName = ref?.startsWith('$') ? ref.slice(1) : ref || config.baseUrl ? undefined : DEFAULT_KEY_ENV[config.api];
  if (ref && !varName) return { key: ref };
  const fromEnv = varName ? env[varName]?.trim() : undefined;
  if (fromEnv) return { key: fromEnv };
  if (!ref && config.baseUrl) return { key: 'not-needed' };
  const set = varName ? `set ${varName} or ` : '';
  return { error: `No API key for provider ${config.id}: ${set}add a key in Settings` };
}
