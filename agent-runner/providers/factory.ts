/**
 * The runner's provider factory: a thread's `model.provider` names a configured provider
 * (settings/providers.json merged with the built-ins, sent in the RunSpec); the registry turns
 * its configuration into a Provider. The scripted model is handled by run.ts itself.
 */
import type { ModelConfig } from '../../shared/thread/schema';
import type { ProviderConfig } from '../../shared/protocol/runner';
import type { Provider } from './types';
import { createProvider, resolveProviderConfig } from './registry';

export function createRunnerProviderFactory(home: string): (model: ModelConfig, providers: ProviderConfig[]) => Provider {
  return (model, providers) => {
    const config = resolveProviderConfig(model.provider, providers);
    if (!config) {
      const known = providers.map((p) => p.id).join(', ') || 'none';
      return {
        async stream() {
          return { content: [], toolCalls: [], stopReason: 'error', error: { message: `Unknown provider "${model.provider}" (configured: ${known}). Add it in Settings → Providers.`, code: 'unknown_provider' } };
        },
      };
    }
    const provider = createProvider(config, process.env, { home });
    return { api: config.api, stream: (req, sink) => provider.stream(req, sink) };
  };
}
