/**
 * The thread one case of a batch runs: the batch's thread with the case's variable values
 * (over the variant's scenario, over the thread's own variables) and the variant's model,
 * parameters and system prompt. A new thread id, no run history: its one run is the case's run,
 * a normal run that can be opened, branched and re-run.
 */
import { randomUUID } from 'node:crypto';
import type { Thread } from '../../../shared/thread/schema';
import type { EvalCase } from '../../../shared/eval/dataset';
import type { Variant } from './variants';

/** The case thread for (`base`, `c`, `v`). Never mutates `base`. */
export function caseThread(base: Thread, c: EvalCase, v: Variant, batchName: string): Thread {
  const t = structuredClone(base);
  t.id = randomUUID();
  t.title = `${base.title} · ${batchName} · ${c.id}${v.name === 'base' ? '' : ` · ${v.name}`}`;
  t.runRefs = [];
  const scenarioName = v.scenario ?? base.context.scenario;
  const scenario = (base.context.scenarios ?? []).find((s) => s.name === scenarioName);
  const variables = { ...(base.context.variables ?? {}), ...(scenario?.variables ?? {}), ...c.vars };
  if (Object.keys(variables).length) t.context.variables = variables;
  // The scenario's values are in `variables` now; the case thread runs them as they are.
  delete t.context.scenario;
  if (v.model) {
    const slash = v.model.indexOf('/');
    t.model.provider = v.model.slice(0, slash);
    t.model.id = v.model.slice(slash + 1);
  }
  if (v.params) t.model.params = { ...t.model.params, ...v.params } as Thread['model']['params'];
  if (v.systemPrompt !== undefined) t.context.systemPrompt = v.systemPrompt;
  return t;
}
