import { describe, expect, it } from 'vitest';
import { usageCost } from '../../../../shared/protocol/runner';
import { costOf } from './cost';

describe('cost of a model call', () => {
  it('prices input, cached input and output per million tokens', () => {
    expect(usageCost({ inputTokens: 1_000_000, outputTokens: 500_000 }, { input: 3, output: 15 })).toBeCloseTo(10.5);
    expect(usageCost({ inputTokens: 1000, outputTokens: 0, cacheReadTokens: 800 }, { input: 3, output: 15, cacheRead: 0.3 })).toBeCloseTo((200 * 3 + 800 * 0.3) / 1e6);
  });

  it("uses the call's provider/model prices from the settings, and is unknown without them", () => {
    const providers = [{ id: 'anthropic', api: 'anthropic-messages', prices: { 'claude-sonnet-4-5': { input: 3, output: 15 } } }];
    expect(costOf('anthropic/claude-sonnet-4-5', { inputTokens: 2000, outputTokens: 1000 }, providers)).toBeCloseTo(0.021);
    expect(costOf('anthropic/other', { inputTokens: 1, outputTokens: 1 }, providers)).toBeUndefined();
    expect(costOf('scripted/scripted', { inputTokens: 1, outputTokens: 1 }, providers)).toBeUndefined();
  });
});
