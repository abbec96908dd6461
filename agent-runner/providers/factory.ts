/**
 * The runner's provider factory: a thread's `model.provider` names a configured provider
 * (settings/providers.json merged with the built-ins, sent in the RunSpec); the registry turns
 * its configuration into a Provider. The scripted model is handled by run.ts itself.
 * The registry (and with it the OpenAI and Anthropic SDKs) loads on the first real call, so a
 * runner process that needs neither starts without paying for them.
 *
 * One Provider per configuration for the factory's life (one run): a provider that counts its
 * calls (replay plays the k-th recorded call on its k-th call) sees every call of the run, not
 * a fresh count per call.
 */
import type { ModelConfig } from '../../shared/thread/model-config';
import type { ProviderConfig } from '../../shared/protocol/runner';
import type { Provider } from './types';

type Registry = typeof import('./registry');
let registry: Promise<Registry> | undefined;
const loadRegistry = (): Promise<Registry> => (registry ??= import('./registry'));

export function createRunnerProviderFactory(home: string): (model: ModelConfig, providers: ProviderConfig[]) => Provider {
  const made = new Map<string, Provider>();
  return (model, providers) => {
    const configured = providers.find((p) => p.id === model.provider);
    return {
      api: configured?.api,
      async stream(req, sink) {
        const reg = await loadRegistry();
        const config = reg.resolveProviderConfig(model.provider, providers);
        if (!config) {
          const known = providers.map((p) => p.id).join(', ') || 'none';
          return { content: [], toolCalls: [], stopReason: 'error', error: { message: `Unknown provider "${model.provider}" (configured: ${known}). Add it in Settings → Providers.`, code: 'unknown_provider' } };
        }
        const key = JSON.stringify(config);
        let provider = made.get(key);
        if (!provider) made.set(key, (provider = reg.createProvider(config, process.env, { home })));
        return provider.stream(req, sink);
      },
    };
  };
}
