import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { API_CONTROLS, chatResponseFormat, controlsOf, flatResponseFormat, unsentControls } from './model-controls';

describe('model controls table', () => {
  it('names why each API lacks a control, and nothing for APIs without controls', () => {
    expect(unsentControls('openai-responses', { seed: 1, stopSequences: ['x'], topP: 0.5 }).map((u) => u.control)).toEqual(['stopSequences', 'seed']);
    expect(unsentControls('anthropic-messages', { seed: 1, topP: 0.5, responseFormat: { type: 'json_object' } }).map((u) => u.control).sort()).toEqual(['responseFormat', 'seed', 'topP']);
    expect(unsentControls('openai-completions', { seed: 1, topP: 0.5, stopSequences: ['x'], reasoning: { effort: 'low' } })).toEqual([]);
    expect(unsentControls('scripted', { seed: 1 })).toEqual([]);
    expect(controlsOf('replay')).toBeNull();
    expect(controlsOf('toString')).toBeNull();
  });

  it('an effort outside an API’s levels is named', () => {
    expect(unsentControls('anthropic-messages', { reasoning: { effort: 'minimal' } })[0].why).toContain('"minimal"');
    expect(API_CONTROLS['anthropic-messages'].efforts).toContain('max');
  });

  it('reads both OpenAI shapes of a JSON schema format into one, and writes the Chat shape back', () => {
    const schema = { type: 'object' };
    const chat = { type: 'json_schema', json_schema: { name: 'a', schema, strict: true } };
    const responses = { type: 'json_schema', name: 'a', schema, strict: true };
    expect(flatResponseFormat(chat)).toEqual(flatResponseFormat(responses));
    expect(chatResponseFormat(flatResponseFormat(responses)!)).toEqual(chat);
    expect(flatResponseFormat({ type: 'json_object' })).toEqual({ type: 'json_object' });
    expect(flatResponseFormat('json')).toBeUndefined();
  });

  it('never throws on any JSON value, and a flat format round-trips through the Chat shape', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const f = flatResponseFormat(v);
        if (f) expect(flatResponseFormat(chatResponseFormat(f))).toEqual(f);
      }),
    );
  });
});
