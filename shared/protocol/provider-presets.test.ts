import { describe, expect, it } from 'vitest';
import { PROVIDER_PRESETS, presetById, presetKeyRef, profileId } from './provider-presets';

describe('provider presets', () => {
  it('has every preset the issue names, with its documented base URL and key variable', () => {
    const table = Object.fromEntries(PROVIDER_PRESETS.map((p) => [p.id, [p.api, p.baseUrl, p.keyEnv]]));
    expect(table).toEqual({
      openai: ['openai-responses', undefined, 'OPENAI_API_KEY'],
      anthropic: ['anthropic-messages', undefined, 'ANTHROPIC_API_KEY'],
      openrouter: ['openai-completions', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'],
      deepseek: ['openai-completions', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY'],
      groq: ['openai-completions', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY'],
      mistral: ['openai-completions', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY'],
      xai: ['openai-completions', 'https://api.x.ai/v1', 'XAI_API_KEY'],
      together: ['openai-completions', 'https://api.together.ai/v1', 'TOGETHER_API_KEY'],
      fireworks: ['openai-completions', 'https://api.fireworks.ai/inference/v1', 'FIREWORKS_API_KEY'],
      gemini: ['openai-completions', 'https://generativelanguage.googleapis.com/v1beta/openai', 'GEMINI_API_KEY'],
      ollama: ['openai-completions', 'http://localhost:11434/v1', undefined],
      lmstudio: ['openai-completions', 'http://localhost:1234/v1', undefined],
      vllm: ['openai-completions', 'http://localhost:8000/v1', 'VLLM_API_KEY'],
    });
  });

  it('ids are unique, remote base URLs are https, local ones http on localhost', () => {
    expect(new Set(PROVIDER_PRESETS.map((p) => p.id)).size).toBe(PROVIDER_PRESETS.length);
    for (const p of PROVIDER_PRESETS) {
      if (!p.baseUrl) continue;
      const u = new URL(p.baseUrl);
      expect(u.protocol).toBe(p.local ? 'http:' : 'https:');
      if (p.local) expect(u.hostname).toBe('localhost');
      // The SDK appends `/chat/completions`: no trailing slash, no endpoint path.
      expect(p.baseUrl).not.toMatch(/\/$|chat\/completions/);
    }
  });

  it('a new profile refers to the key variable of a hosted preset, none for a local server', () => {
    expect(presetKeyRef(presetById('groq')!)).toBe('$GROQ_API_KEY');
    expect(presetKeyRef(presetById('ollama')!)).toBeUndefined();
    expect(presetKeyRef(presetById('vllm')!)).toBeUndefined();
    expect(presetById('nope')).toBeUndefined();
  });

  it('profile ids: the preset id first, then one per name, never a taken one', () => {
    const openai = presetById('openai')!;
    expect(profileId(openai, 'OpenAI', [])).toBe('openai');
    expect(profileId(openai, 'OpenAI work', ['openai'])).toBe('openai-work');
    expect(profileId(openai, 'Personal!', ['openai'])).toBe('openai-personal');
    expect(profileId(openai, 'work', ['openai', 'openai-work'])).toBe('openai-work-2');
    expect(profileId(openai, '', ['openai'])).toBe('openai-2');
    expect(profileId(openai, 'Ünïcode ✓', ['openai'])).toMatch(/^openai-[a-z0-9-]+$/);
  });
});
