/**
 * checkBatchSpec, property-tested: whatever a batch file holds, the check never throws; a good
 * spec passes; a good spec with one field replaced by anything either still checks or is
 * refused with a problem naming that field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { batchSpec } from '../../../tests/support/batch-spec';
import type { BatchSpec } from './batch-files';
import { checkBatchSpec } from './batch-spec';


describe('checkBatchSpec', () => {
  it('passes a spec the host writes', () => {
    expect(checkBatchSpec(batchSpec())).toMatchObject({ ok: true, spec: { id: batchSpec().id, concurrency: 4 } });
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
    const fields = Object.keys(batchSpec()) as (keyof BatchSpec)[];
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const r = checkBatchSpec({ ...batchSpec(), [field]: value });
        if (!r.ok) expect(r.problems.some((p) => p.startsWith(`/${field}`))).toBe(true);
      }),
    );
  });

  it('refuses what the host API refuses for a new batch', () => {
    expect(checkBatchSpec({ ...batchSpec(), concurrency: 33 })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\/concurrency: .*32/)] });
    expect(checkBatchSpec({ ...batchSpec(), variants: [] })).toMatchObject({ ok: false, problems: [expect.stringMatching(/^\/variants/)] });
    expect(checkBatchSpec({ ...batchSpec(), dataset: {} })).toMatchObject({ ok: false, problems: expect.arrayContaining([expect.stringMatching(/^\/dataset\/name/)]) });
  });
});
