import { describe, expect, it } from 'vitest';
import { callCost, knownPrice, priceFor, withCost } from './prices';

describe('known prices', () => {
  it('match an exact id or a dated snapshot, nothing looser', () => {
    expect(knownPrice('openai-responses', 'gpt-4.1')).toEqual({ input: 2, cacheRead: 0.5, output: 8 });
    expect(knownPrice('openai-completions', 'gpt-4.1-2025-04-14')).toEqual(knownPrice('openai-responses', 'gpt-4.1'));
    expect(knownPrice('openai-responses', 'gpt-4.1-mini-2025-04-14')).toEqual({ input: 0.4, cacheRead: 0.1, output: 1.6 });
    expect(knownPrice('anthropic-messages', 'claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(knownPrice('anthropic-messages', 'claude-opus-4-1-20250805')).toMatchObject({ input: 15 });
    expect(knownPrice('anthropic-messages', 'claude-opus-4-5')).toMatchObject({ input: 5 });
    expect(knownPrice('openai-responses', 'o3-mini')).toBeUndefined();
    expect(knownPrice('openai-responses', 'gpt-4.1-custom')).toBeUndefined();
    expect(knownPrice('openai-responses', 'claude-sonnet-4-5')).toBeUndefined();
    expect(knownPrice('openai-responses', 'toString')).toBeUndefined();
    expect(knownPrice('scripted', 'gpt-4.1')).toBeUndefined();
  });

  it('apply to the vendors\' own endpoints only; configured prices win everywhere', () => {
    expect(priceFor({ id: 'openai', api: 'openai-responses' }, 'gpt-4o')).toMatchObject({ input: 2.5 });
    expect(priceFor({ id: 'o', api: 'openai-completions', baseUrl: 'https://api.openai.com/v1' }, 'gpt-4o')).toMatchObject({ input: 2.5 });
    expect(priceFor({ id: 'vllm', api: 'openai-completions', baseUrl: 'http://127.0.0.1:8000/v1' }, 'gpt-4o')).toBeUndefined();
    expect(priceFor({ id: 'vllm', api: 'openai-completions', baseUrl: 'http://127.0.0.1:8000/v1', prices: { 'gpt-4o': { input: 1, output: 2 } } }, 'gpt-4o')).toEqual({ input: 1, output: 2 });
    expect(priceFor(undefined, 'gpt-4o')).toBeUndefined();
  });
});

describe('call cost', () => {
  it('OpenAI: cached tokens are part of the input, billed at the cache rate', () => {
    // 1000 input of which 400 cached, 200 output (100 reasoning, part of output) on gpt-4.1.
    expect(callCost({ inputTokens: 1000, outputTokens: 200, cacheReadTokens: 400, reasoningTokens: 100 }, { input: 2, cacheRead: 0.5, output: 8 }, 'openai-responses')).toBeCloseTo((600 * 2 + 400 * 0.5 + 200 * 8) / 1e6, 12);
  });

  it('Anthropic: cache reads and writes come on top of the input, at their own rates', () => {
    expect(callCost({ inputTokens: 100, outputTokens: 50, cacheReadTokens: 2000, cacheWriteTokens: 300 }, { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 }, 'anthropic-messages')).toBeCloseTo((100 * 3 + 2000 * 0.3 + 300 * 3.75 + 50 * 15) / 1e6, 12);
  });

  it('an unknown model keeps tokens only', () => {
    const u = { inputTokens: 10, outputTokens: 5 };
    expect(withCost(u, { id: 'openai', api: 'openai-responses' }, 'my-finetune')).toEqual(u);
    expect(withCost(u, { id: 'openai', api: 'openai-responses' }, 'gpt-5').costUsd).toBeCloseTo((10 * 1.25 + 5 * 10) / 1e6, 12);
  });
});
