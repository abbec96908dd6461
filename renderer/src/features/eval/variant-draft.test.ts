import { describe, expect, it } from 'vitest';
import { emptyDraft, readVariants } from './variant-draft';

describe('readVariants', () => {
  it('reads name, model, scenario and params; empty fields keep the thread’s own', () => {
    const r = readVariants([
      { name: 'base', model: '', scenario: '', params: '' },
      { name: ' terse ', model: 'scripted/scripted', scenario: 'terse', params: '{"temperature": 0}' },
    ]);
    expect(r).toEqual({ ok: true, variants: [{ name: 'base' }, { name: 'terse', model: 'scripted/scripted', scenario: 'terse', params: { temperature: 0 } }] });
  });

  it('names every bad row and field', () => {
    const r = readVariants([
      { ...emptyDraft(), model: 'gpt-4o' },
      { name: 'a', model: '', scenario: '', params: '[1]' },
      { name: 'a', model: '', scenario: '', params: '{oops' },
    ]);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors[0]).toBe('variant 1: the name is empty');
    expect(r.errors[1]).toMatch(/^variant 1: the model must be provider\/id/);
    expect(r.errors[2]).toMatch(/^variant 2: params must be a JSON object/);
    expect(r.errors[3]).toBe('variant 3: the name "a" is used twice');
    expect(r.errors[4]).toMatch(/^variant 3: params are not JSON/);
    expect(readVariants([])).toEqual({ ok: false, errors: ['add at least one variant'] });
  });
});
