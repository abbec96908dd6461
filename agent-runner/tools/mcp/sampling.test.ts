import { describe, expect, it } from 'vitest';
import { preferredModel, samplingToNestedCall } from './sampling';
import { scriptedThread } from '../../../tests/support/threads';

const thread = { ...scriptedThread([{ text: 'x' }]), model: { provider: 'anthropic', id: 'claude-sonnet-4-5', params: { maxTokens: 1000 } } };

describe('sampling model preferences (MCP modelPreferences.hints)', () => {
  it("uses a hint naming a configured provider's model, else a hint matching the thread's model, else the thread's model", () => {
    expect(preferredModel({ hints: [{ name: 'openai/gpt-4.1-mini' }] }, thread, ['openai', 'anthropic'])).toMatchObject({ provider: 'openai', id: 'gpt-4.1-mini', params: { maxTokens: 1000 } });
    // An unconfigured provider is skipped; "sonnet" is part of the thread's model id.
    expect(preferredModel({ hints: [{ name: 'mistral/large' }, { name: 'sonnet' }] }, thread, ['anthropic'])).toBe(thread.model);
    expect(preferredModel({ hints: [{ name: 'gemini' }] }, thread, ['anthropic'])).toBe(thread.model);
    expect(preferredModel(undefined, thread, [])).toBe(thread.model);
  });

  it('turns a createMessage request into a nested call on the preferred model, with its temperature and token cap', () => {
    const call = samplingToNestedCall(
      { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], systemPrompt: 'Be brief.', maxTokens: 60, temperature: 0.3, modelPreferences: { hints: [{ name: 'openai/gpt-4.1' }] } },
      thread,
      'everything',
      ['openai'],
    );
    expect(call).toMatchObject({ kind: 'sampling', systemPrompt: 'Be brief.', maxTokens: 60, model: { provider: 'openai', id: 'gpt-4.1', params: { temperature: 0.3 } } });
    expect(call.messages[0]).toMatchObject({ role: 'user', content: [{ type: 'text', text: 'hi' }] });
  });
});
