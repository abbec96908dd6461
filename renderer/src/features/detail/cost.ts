/** The cost of one model call, from the prices its provider declares in providers.json. */
import type { ProviderInfo } from '../../../../shared/protocol/host-api';
import type { Usage } from '../../../../shared/protocol/nodes';
import { usageCost } from '../../../../shared/protocol/runner';

/** Cost in USD of a call by `provider/model` with `usage`; undefined when no price is configured. */
export function costOf(model: string | undefined, usage: Usage | undefined, providers: ProviderInfo[]): number | undefined {
  if (!model || !usage) return undefined;
  const slash = model.indexOf('/');
  const price = providers.find((p) => p.id === model.slice(0, slash))?.prices?.[model.slice(slash + 1)];
  return price ? usageCost(usage, price) : undefined;
}
