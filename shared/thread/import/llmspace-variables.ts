/**
 * LLM Space prompt variables → Stepwise's `context.variables` / `variableTypes` / `scenarios`.
 *
 * LLM Space keeps three things (packages/core/src/types/threads/thread.ts):
 * - `context.variables`: typed definitions, name → `{ type: "json" | "file", value }`,
 *   `{ type: "workingDirectory", value }`, or ones it computes when a prompt is rendered:
 *   `{ type: "currentDate", format }`, `{ type: "skills", skillNames, format, indent }`;
 * - `context.variableVariants`: `{ active, variants: { [bucket]: { [name]: text } } }`, the
 *   user's own text variables per value set;
 * - `context.snapshot.variables`: `{ [place]: { [name]: value } }`, the values each prompt place
 *   (`systemPrompt`, `message:<id>:text`, `toolResult:…`) was first run with (frozen values).
 *
 * Mapping: json / file keep their type and value; workingDirectory is text. A computed variable
 * (currentDate, skills) has no value of its own: it takes its frozen value (the system prompt's
 * first, else the first place that has one), and its definition goes to the notes. The active
 * bucket's values are the variables; every bucket becomes a scenario of the same name (a lone
 * `default` bucket is just the variables), and the active one is the picked scenario.
 */
import type { Scenario, Thread } from '../schema';
import { VARIABLE_NAME_PATTERN } from '../schema';
import { fail, isObj, type Obj } from './common';
import { F, type LlmSpaceCtx } from './llmspace-messages';

type Vars = Pick<Thread['context'], 'variables' | 'variableTypes' | 'scenarios' | 'scenario'>;

/** Per-place frozen values, `{ [place]: { [name]: value } }`, without LLM Space's internal keys (a leading space or NUL). */
export function frozenValues(snapshot: unknown, at: string): Record<string, Record<string, string>> {
  if (snapshot === undefined) return {};
  if (!isObj(snapshot)) fail(F, at, 'expected an object');
  if (snapshot.variables === undefined) return {};
  if (!isObj(snapshot.variables)) fail(F, `${at}/variables`, 'expected { [place]: { [name]: value } }');
  const out: Record<string, Record<string, string>> = {};
  for (const [place, vals] of Object.entries(snapshot.variables)) {
    if (!isObj(vals)) fail(F, `${at}/variables/${esc(place)}`, 'expected { [name]: value }');
    const kept: Record<string, string> = {};
    for (const [name, v] of Object.entries(vals)) if (VARIABLE_NAME_PATTERN.test(name) && typeof v === 'string') kept[name] = v;
    if (Object.keys(kept).length) out[place] = kept;
  }
  return out;
}

const esc = (k: string): string => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** The frozen value of `name`: the system prompt's, else the first place's that has one. */
function frozenOf(frozen: Record<string, Record<string, string>>, name: string): string | undefined {
  if (frozen.systemPrompt?.[name] !== undefined) return frozen.systemPrompt[name];
  for (const vals of Object.values(frozen)) if (vals[name] !== undefined) return vals[name];
  return undefined;
}

/** The variable fields of a Stepwise context from an LLM Space context (`at` its pointer). */
export function variablesOf(context: Obj, at: string, ctx: LlmSpaceCtx): Vars {
  const frozen = frozenValues(context.snapshot, `${at}/snapshot`);
  const variables: Record<string, string> = {};
  const types: NonNullable<Vars['variableTypes']> = {};
  const defs = context.variables;
  if (defs !== undefined && !isObj(defs)) fail(F, `${at}/variables`, 'expected { [name]: definition }');
  for (const [name, def] of Object.entries(defs ?? {})) {
    const pat = `${at}/variables/${esc(name)}`;
    if (!VARIABLE_NAME_PATTERN.test(name)) fail(F, pat, `${JSON.stringify(name)} is not a variable name (letters, digits and "_", not starting with a digit)`);
    if (!isObj(def) || typeof def.type !== 'string') fail(F, pat, 'expected a variable definition { type, … }');
    if (def.type === 'json' || def.type === 'file' || def.type === 'workingDirectory') {
      if (typeof def.value !== 'string') fail(F, `${pat}/value`, 'expected the value text');
      variables[name] = def.value;
      if (def.type !== 'workingDirectory') types[name] = def.type;
      continue;
    }
    const value = frozenOf(frozen, name);
    const { type, ...rest } = def;
    variables[name] = value ?? '';
    ctx.notes.push({
      pointer: pat,
      message: `LLM Space computes ${type} variables when it renders a prompt (${JSON.stringify(rest)}); imported as text ${value === undefined ? 'with no value (the file has no frozen value)' : `with its frozen value ${JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}…` : value)}`}`,
    });
  }
  const scenarios = scenariosOf(context.variableVariants, `${at}/variableVariants`);
  if (scenarios.active) for (const [name, v] of Object.entries(scenarios.active)) if (!(name in variables)) variables[name] = v;
  // A custom variable with no value in the active bucket keeps the value it was frozen with.
  for (const s of scenarios.list) for (const name of Object.keys(s.variables)) if (!(name in variables)) variables[name] = frozenOf(frozen, name) ?? '';
  for (const place of Object.keys(frozen)) {
    for (const [name, v] of Object.entries(frozen[place])) {
      if (!(name in variables)) variables[name] = v;
      else if (variables[name] !== v) {
        ctx.notes.push({ pointer: `${at}/snapshot/variables/${esc(place)}/${name}`, message: `${place} was run with ${name} = ${JSON.stringify(v)}; Stepwise keeps one value per variable (${JSON.stringify(variables[name])})` });
      }
    }
  }
  const out: Vars = {};
  if (Object.keys(variables).length) out.variables = variables;
  if (Object.keys(types).length) out.variableTypes = types;
  if (scenarios.list.length) {
    out.scenarios = scenarios.list;
    if (scenarios.activeName) out.scenario = scenarios.activeName;
  }
  return out;
}

function scenariosOf(vv: unknown, at: string): { list: Scenario[]; active?: Record<string, string>; activeName?: string } {
  if (vv === undefined) return { list: [] };
  if (!isObj(vv) || !isObj(vv.variants)) fail(F, at, 'expected { active, variants: { [name]: { [variable]: value } } }');
  const list: Scenario[] = [];
  for (const [name, vals] of Object.entries(vv.variants)) {
    if (!isObj(vals)) fail(F, `${at}/variants/${esc(name)}`, 'expected { [variable]: value }');
    const variables: Record<string, string> = {};
    for (const [k, v] of Object.entries(vals)) {
      if (typeof v !== 'string') fail(F, `${at}/variants/${esc(name)}/${esc(k)}`, 'expected the value text');
      if (!VARIABLE_NAME_PATTERN.test(k)) fail(F, `${at}/variants/${esc(name)}/${esc(k)}`, `${JSON.stringify(k)} is not a variable name`);
      variables[k] = v;
    }
    if (name) list.push({ name, variables });
  }
  const activeName = typeof vv.active === 'string' && list.some((s) => s.name === vv.active) ? vv.active : undefined;
  const active = list.find((s) => s.name === activeName)?.variables;
  const lone = list.length === 1 && list[0].name === 'default';
  return lone ? { list: [], active } : { list, active, activeName };
}
