import { describe, expect, it } from 'vitest';
import { parseVariant, variantProblems } from './variants';
import { caseThread } from './case-thread';
import type { Thread } from '../../../shared/thread/schema';

const thread: Thread = {
  version: 1,
  id: '00000000-0000-4000-8000-000000000001',
  title: 'T',
  model: { provider: 'scripted', id: 'scripted', params: { temperature: 1 } },
  context: { systemPrompt: 'Be {{tone}}.', tools: [], messages: [], variables: { tone: 'kind', city: 'Oslo' }, scenarios: [{ name: 'terse', variables: { tone: 'terse' } }], scenario: 'terse' },
  runRefs: [{ id: 'r1', startedAt: 1, status: 'completed', mode: 'step' }],
};

describe('variants', () => {
  it('parses key=value pairs (JSON values where they parse) and names itself when unnamed', () => {
    expect(parseVariant('name=mini model=openai/gpt-4o-mini temperature=0.2')).toEqual({ name: 'mini', model: 'openai/gpt-4o-mini', params: { temperature: 0.2 } });
    expect(parseVariant('model=anthropic/claude-x, params.maxTokens=100')).toEqual({ name: 'anthropic/claude-x maxTokens=100', model: 'anthropic/claude-x', params: { maxTokens: 100 } });
    expect(parseVariant('scenario=terse prompt=Be brief')).toEqual({ name: 'scenario=terse prompt', scenario: 'terse', systemPrompt: 'Be brief' });
    expect(() => parseVariant('model=gpt4')).toThrow('model must be provider/model (e.g. openai/gpt-4o-mini), not "gpt4"');
    expect(() => parseVariant('nonsense')).toThrow('"nonsense" is not key=value');
    expect(() => parseVariant('')).toThrow(/at least one key=value/);
  });

  it('refuses a parameter value its schema does not take, an unknown key, a repeated key and an empty name', () => {
    expect(() => parseVariant('temperature=abc')).toThrow(/^temperature=abc: /);
    expect(() => parseVariant('maxTokens=0')).toThrow(/^maxTokens=0: /);
    expect(() => parseVariant('foo=bar')).toThrow('"foo" is not a variant key (known: name, model, scenario, prompt, temperature, maxTokens');
    expect(() => parseVariant('temprature=0.2')).toThrow(/"temprature" is not a variant key \(known: .*temperature/);
    expect(() => parseVariant('params.foo=1')).toThrow('"params.foo" is not a variant key');
    expect(() => parseVariant('model=a/x model=a/y')).toThrow('"model" is given twice');
    expect(() => parseVariant('temperature=0.1 params.temperature=0.2')).toThrow('"params.temperature" is given twice');
    expect(() => parseVariant('prompt=a systemPrompt=b')).toThrow('"systemPrompt" is given twice');
    expect(() => parseVariant('name= model=a/x')).toThrow('name= is empty');
    expect(() => parseVariant('name=')).toThrow('name= is empty');
    expect(parseVariant('temperature=0.5 tokensPerSecond=100 reasoning={"effort":"low"}')).toEqual({ name: 'temperature=0.5 tokensPerSecond=100 reasoning={"effort":"low"}', params: { temperature: 0.5, tokensPerSecond: 100, reasoning: { effort: 'low' } } });
  });

  it('names repeated variant names and scenarios the thread does not have', () => {
    expect(variantProblems([{ name: 'a' }, { name: 'a', scenario: 'loud' }], thread)).toEqual([
      'two variants are named "a"; give each a name=…',
      'variant "a": the thread has no scenario "loud" (it has "terse")',
    ]);
  });

  it('a case thread: new id, no runs, case values over the scenario over the thread\'s variables, the variant\'s model and params', () => {
    const t = caseThread(thread, { id: 'c1', vars: { city: 'Lima' } }, { name: 'v', model: 'openai/gpt-4o', params: { seed: 7 } }, 'batch');
    expect(t.id).not.toBe(thread.id);
    expect(t.runRefs).toEqual([]);
    expect(t.title).toBe('T · batch · c1 · v');
    expect(t.context.variables).toEqual({ tone: 'terse', city: 'Lima' });
    expect(t.context.scenario).toBeUndefined();
    expect(t.model).toEqual({ provider: 'openai', id: 'gpt-4o', params: { temperature: 1, seed: 7 } });
    expect(thread.context.variables).toEqual({ tone: 'kind', city: 'Oslo' }); // untouched
  });
});
