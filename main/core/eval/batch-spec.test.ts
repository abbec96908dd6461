/**
 * checkBatchSpec, property-tested: whatever a batch file holds, the check never throws; a good
 * spec passes; a good spec with one field replaced by anything either still checks or is
 * refused with a problem naming that field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyDataset } from '../../../shared/eval/dataset';
import { scriptedThread } from '../../../tests/support/threads';
import { checkBatchSpec } from './batch-spec';

const good = () => ({
  id: '2026-01-01T00-00-00-abc123',
  name: 'arithmetic',
  createdAt: 1,
  threadFile: 't.json',
  thread: scriptedThread([{ text: '4' }]),
  datasetFile: 'datasets/arithmetic.dataset.json',
  dataset: { ...emptyDataset('arithmetic'), cases: [{ id: 'c1', vars: { q: '2+2' } }] },
  variants: [{ name: 'base' }],
  concurrency: 4,
  maxTurns: 10,
  scheduler: 'local',
});

describe('checkBatchSpec', () => {
  it('passes a spec the host writes', () => {
    expect(checkBatchSpec(good())).toMatchObject({ ok: true, spec: { id: good().id, concurrency: 4 } });
  });

  it('never throws, whatever the file holds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const r = checkBatchSpec(v);
        if (!r.ok) expect(r.problems.length).toBeGreaterThan(0);
      }),
    );
  });

  it('names the field that does not check', () => {
    const fields = Object.keys(good()) as (keyof ReturnType<typeof good>)[];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const r = checkBatchSpec({ ...good(), [field]: value });
        if (!r.ok) expect(r.problems.some((p) => p.startsWith(`/${field}`))).toBe(true);
      }),
    );
  });

  it('refuses what the host API refuses for a new batch', () => {
    expect(checkBatchSpec({ ...good(), concurrency: 33 })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\/concurrency: .*32/)] });
    expect(checkBatchSpec({ ...good(), variants: [] })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\/variants/)] });
    expect(checkBatchSpec({ ...good(), dataset: {} })).toMatchObject({ ok: false, problems: expect.arrayContaining([expect.stringMatching(/^\/dataset\/name/)]) });
  });
});
