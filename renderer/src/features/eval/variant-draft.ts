/**
 * The batch dialog's variant editor (RunBatch.tsx): each row is typed as text — a name, a
 * model `provider/id`, a scenario and model parameters as a JSON object — and read here into
 * the `eval.startBatch` variants (shared/protocol/contract/eval-methods.ts VariantSchema).
 */
import type { Static } from '@sinclair/typebox';
import type { VariantSchema } from '../../../../shared/protocol/contract/eval-methods';

export type Variant = Static<typeof VariantSchema>;

/** One variant row as typed. */
export interface VariantDraft {
  name: string;
  /** `provider/id`, or empty for the thread's own model. */
  model: string;
  /** A scenario name, or empty for the thread's own. */
  scenario: string;
  /** A JSON object of model parameters, or empty. */
  params: string;
}

/** An empty row. */
export function emptyDraft(name = ''): VariantDraft {
  return { name, model: '', scenario: '', params: '' };
}

/**
 * The variants of `drafts`, or every problem found, each naming the row (1-based) and field:
 * a missing or repeated name, a model that is not `provider/id`, params that are not a JSON object.
 */
export function readVariants(drafts: readonly VariantDraft[]): { ok: true; variants: Variant[] } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const variants: Variant[] = [];
  const names = new Set<string>();
  if (!drafts.length) errors.push('add at least one variant');
  drafts.forEach((d, i) => {
    const at = `variant ${i + 1}`;
    const name = d.name.trim();
    const v: Variant = { name };
    if (!name) errors.push(`${at}: the name is empty`);
    else if (names.has(name)) errors.push(`${at}: the name "${name}" is used twice`);
    names.add(name);
    const model = d.model.trim();
    if (model) {
      if (/^[^/\s]+\/\S+$/.test(model)) v.model = model;
      else errors.push(`${at}: the model must be provider/id (e.g. openai/gpt-4o-mini), not "${model}"`);
    }
    if (d.scenario.trim()) v.scenario = d.scenario.trim();
    if (d.params.trim()) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(d.params);
      } catch (err) {
        errors.push(`${at}: params are not JSON (${(err as Error).message})`);
        return variants.push(v);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) errors.push(`${at}: params must be a JSON object, e.g. {"temperature": 0}`);
      else v.params = parsed as Record<string, unknown>;
    }
    variants.push(v);
  });
  return errors.length ? { ok: false, errors } : { ok: true, variants };
}
