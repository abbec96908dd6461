/**
 * The values a thread's templates see (docs/architecture.md#templates): its variables by type
 * (`text`; `json`, parsed; `file`, the contents of a workspace file), overridden by the picked
 * scenario's, and the built-ins `current_date`, `current_working_directory`, `thread_title` and
 * `available_skills` (the thread's enabled skills, one `- name: description` line each)
 * (a variable of the same name wins; a `current_date` whose value is a format name picks the format).
 */
import type { Thread } from '../thread/schema';
import { CURRENT_DATE_FORMATS, type CurrentDateFormat } from './syntax';
import type { FileLookup } from './render';
import { availableSkillsText } from '../skills/skill-info';

/** Where variables come from for one render. */
export interface VariableSources {
  /** The scenario to use, overriding `thread.context.scenario`; '' = none. */
  scenario?: string;
  /** Value of `current_working_directory`. */
  workingDirectory: string;
  now: Date;
  /** The thread's enabled skills that were found (value of `available_skills`). */
  skills?: readonly { name: string; description: string }[];
}

/** What the variables resolve to before any file is read: file variables are named by path. */
export interface ResolvedVariables {
  values: Record<string, unknown>;
  problems: Record<string, string>;
  /** name → workspace-relative path of each file variable. */
  files: Record<string, string>;
  /** The JSON of everything the values depend on but files and the clock (FrozenRenders.inputs). */
  inputs: string;
  /** The scenario used, when one. */
  scenario?: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Made once: an Intl formatter costs far more to build than to use (a batch renders a date per case). */
let weekday: Intl.DateTimeFormat | undefined;
let zoneName: string | undefined;
/** The last readable date made, by its day: a batch's cases on one day share it. */
let lastReadable: { day: string; text: string } | undefined;

/** `now` in one of LLM Space's `current_date` formats, in local time. */
export function formatCurrentDate(format: CurrentDateFormat, now: Date): string {
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  if (format === 'iso-date') return date;
  if (format === 'readable-date') {
    if (lastReadable?.day !== date) lastReadable = { day: date, text: `${date}, ${(weekday ??= new Intl.DateTimeFormat('en', { weekday: 'long' })).format(now)}` };
    return lastReadable.text;
  }
  const time = `${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
  const offset = -now.getTimezoneOffset();
  const zone = `GMT${offset >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  zoneName ??= Intl.DateTimeFormat().resolvedOptions().timeZone || 'local';
  return `${date} ${time} ${zone} (${zoneName})`;
}

/** An unknown scenario name; the message lists the thread's scenarios. */
export class ScenarioError extends Error {}

/** The thread's variables for one render. Throws ScenarioError for a scenario the thread does not have. */
export function resolveVariables(thread: Thread, src: VariableSources): ResolvedVariables {
  const ctx = thread.context;
  const picked = src.scenario ?? ctx.scenario ?? '';
  let own: Record<string, string> = { ...(ctx.variables ?? {}) };
  if (picked) {
    const scenario = ctx.scenarios?.find((s) => s.name === picked);
    if (!scenario) {
      const names = (ctx.scenarios ?? []).map((s) => JSON.stringify(s.name));
      throw new ScenarioError(`unknown scenario ${JSON.stringify(picked)}: ${names.length ? `the thread has ${names.join(', ')}` : 'the thread has no scenarios'}`);
    }
    own = { ...own, ...scenario.variables };
  }
  const types = ctx.variableTypes ?? {};
  const values: Record<string, unknown> = {
    current_working_directory: src.workingDirectory,
    thread_title: thread.title,
    available_skills: availableSkillsText(src.skills ?? []),
    current_date: formatCurrentDate('readable-date', src.now),
  };
  const problems: Record<string, string> = {};
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(own)) {
    const type = types[name] ?? 'text';
    if (type === 'json') {
      try {
        values[name] = JSON.parse(text);
      } catch (err) {
        problems[name] = `variable "${name}" is not valid JSON (${(err as Error).message})`;
      }
    } else if (type === 'file') {
      if (text.trim()) files[name] = text.trim();
      else problems[name] = `file variable "${name}" names no file`;
    } else if (name === 'current_date' && (CURRENT_DATE_FORMATS as readonly string[]).includes(text)) {
      values[name] = formatCurrentDate(text as CurrentDateFormat, src.now);
    } else {
      values[name] = text;
    }
  }
  // The skills are inputs too: enabling one re-renders the places that list them.
  const skills = src.skills?.length ? src.skills.map((s) => ({ name: s.name, description: s.description })) : undefined;
  const inputs = JSON.stringify({ variables: own, types, ...(skills ? { skills } : {}) });
  return { values, problems, files, inputs, ...(picked ? { scenario: picked } : {}) };
}

/** Puts each file variable's contents (or why it has none) into `values` / `problems`. */
export function applyFileVariables(v: ResolvedVariables, read: (path: string) => FileLookup): void {
  for (const [name, path] of Object.entries(v.files)) {
    const hit = read(path);
    if (hit.kind === 'file') v.values[name] = hit.text;
    else if (hit.kind === 'missing') v.values[name] = '';
    else v.problems[name] = `file variable "${name}" (${path}): ${hit.message}`;
  }
}
