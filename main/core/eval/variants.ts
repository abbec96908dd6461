/**
 * Variants of a batch: what changes between the columns of the results grid — the model, the
 * scenario, the system prompt, model parameters. Written on the command line as
 * `--variant "name=cheap model=openai/gpt-4o-mini temperature=0.2"` (space- or comma-separated
 * `key=value` pairs; a value is read as JSON when it parses, else as text).
 */
import type { Thread } from '../../../shared/thread/schema';

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

/** Parses one `--variant` value; throws an Error naming the bad pair. */
export function parseVariant(spec: string): Variant {
  const pairs = spec.split(/[\s,]+(?=[A-Za-z_][\w.]*=)/).map((p) => p.trim()).filter(Boolean);
  if (!pairs.length) throw new Error('a variant needs at least one key=value pair, e.g. model=openai/gpt-4o-mini');
  const v: Variant = { name: '' };
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`"${pair}" is not key=value`);
    const key = pair.slice(0, eq);
    const raw = pair.slice(eq + 1);
    if (key === 'name') v.name = raw;
    else if (key === 'model') {
      if (!/^[^/\s]+\/\S+$/.test(raw)) throw new Error(`model must be provider/model (e.g. openai/gpt-4o-mini), not "${raw}"`);
      v.model = raw;
    } else if (key === 'scenario') v.scenario = raw;
    else if (key === 'systemPrompt' || key === 'prompt') v.systemPrompt = raw;
    else {
      const name = key.startsWith('params.') ? key.slice(7) : key;
      if (!/^[A-Za-z_]\w*$/.test(name) || KEYS.has(name)) throw new Error(`"${key}" is not a variant key (name, model, scenario, prompt, or a model parameter)`);
      let value: unknown = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        /* text */
      }
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
