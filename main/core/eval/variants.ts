/**
 * Variants of a batch: what changes between the columns of the results grid — the model, the
 * scenario, the system prompt, model parameters. Written on the command line as
 * `--variant "name=cheap model=openai/gpt-4o-mini temperature=0.2"` (space- or comma-separated
 * `key=value` pairs; a value is read as JSON when it parses, else as text).
 */
import type { Thread } from '../../../shared/thread/schema';
import { ModelParamsSchema } from '../../../shared/thread/model-config';
import { schemaProblems } from '../../../shared/thread/validate';

/** One variant; absent fields keep the thread's own. */
export interface Variant {
  /** Column name (default: built from the other fields, or "base"). */
  name: string;
  /** `provider/model`, e.g. `openai/gpt-4o-mini` or `scripted/scripted`. */
  model?: string;
  /** A scenario of the thread (`context.scenarios[].name`) whose values the cases start from. */
  scenario?: string;
  /** Replaces the system prompt. */
  systemPrompt?: string;
  /** Model parameters merged over the thread's (`temperature`, `maxTokens`, …). */
  params?: Record<string, unknown>;
}

const KEYS = new Set(['name', 'model', 'scenario', 'systemPrompt', 'prompt']);
/** The model parameters a variant may set (the thread's `model.params` fields). */
const PARAM_KEYS = Object.keys(ModelParamsSchema.properties);
/** Every key a variant takes, as listed in errors. */
export const VARIANT_KEYS = ['name', 'model', 'scenario', 'prompt', ...PARAM_KEYS];

/**
 * Parses one `--variant` value; throws an Error naming the bad pair: not key=value, an unknown
 * key (listing the known ones), a key given twice, an empty name, a model parameter whose value
 * its schema (`ModelParamsSchema`) does not take.
 */
export function parseVariant(spec: string): Variant {
  const pairs = spec.split(/[\s,]+(?=[A-Za-z_][\w.]*=)/).map((p) => p.trim()).filter(Boolean);
  if (!pairs.length) throw new Error('a variant needs at least one key=value pair, e.g. model=openai/gpt-4o-mini');
  const v: Variant = { name: '' };
  const seen = new Set<string>();
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    // One place per key: `prompt`/`systemPrompt` and `x`/`params.x` are the same key.
    const canonical = key === 'systemPrompt' ? 'prompt' : key.startsWith('params.') ? key.slice(7) : key;
    if (seen.has(canonical)) throw new Error(`"${key}" is given twice; give each key once`);
    seen.add(canonical);
    if (key === 'name') {
      if (!raw.trim()) throw new Error('name= is empty; give the variant a name, or leave name out');
      v.name = raw;
    } else if (key === 'model') {
      if (!/^[^/\s]+\/\S+$/.test(raw)) throw new Error(`model must be provider/model (e.g. openai/gpt-4o-mini), not "${raw}"`);
      v.model = raw;
    } else if (key === 'scenario') v.scenario = raw;
    else if (key === 'systemPrompt' || key === 'prompt') v.systemPrompt = raw;
    else {
      const name = key.startsWith('params.') ? key.slice(7) : key;
      if (KEYS.has(name) || !PARAM_KEYS.includes(name)) throw new Error(`"${key}" is not a variant key (known: ${VARIANT_KEYS.join(', ')})`);
      let value: unknown = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        /* text */
      }
      const problem = schemaProblems(ModelParamsSchema.properties[name as keyof typeof ModelParamsSchema.properties], value)[0];
      if (problem) throw new Error(`${name}=${raw}: ${problem.pointer ? `${problem.pointer}: ` : ''}${problem.message}`);
      (v.params ??= {})[name] = value;
    }
  }
  if (!v.name) v.name = defaultName(v);
  return v;
}

function defaultName(v: Variant): string {
  const parts = [v.model, v.scenario && `scenario=${v.scenario}`, v.systemPrompt !== undefined && 'prompt', ...Object.entries(v.params ?? {}).map(([k, x]) => `${k}=${JSON.stringify(x)}`)].filter(Boolean);
  return parts.join(' ') || 'base';
}

/** Checks variants against the thread: names unique, scenarios that exist. Returns the problems. */
export function variantProblems(variants: Variant[], thread: Thread): string[] {
  const out: string[] = [];
  const names = new Set<string>();
  for (const v of variants) {
    if (names.has(v.name)) out.push(`two variants are named "${v.name}"; give each a name=…`);
    names.add(v.name);
    if (v.scenario !== undefined && !(thread.context.scenarios ?? []).some((s) => s.name === v.scenario)) {
      const have = (thread.context.scenarios ?? []).map((s) => `"${s.name}"`).join(', ');
      out.push(`variant "${v.name}": the thread has no scenario "${v.scenario}"${have ? ` (it has ${have})` : ' (it has none)'}`);
    }
  }
  return out;
}
