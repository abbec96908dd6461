/**
 * The variables a thread's templates see, as the editors show them (completion, hover): its
 * own, overridden by the picked scenario's, and the built-ins (docs/architecture.md#templates).
 * Values are as written; the host resolves files and dates when it renders.
 */
import type { Thread } from '../../../../shared/thread/schema';
import { BUILTIN_VARIABLES } from '../../../../shared/template/syntax';
import type { TemplateVariable } from '../../ui/template-extension';

const BUILTIN_VALUES: Record<(typeof BUILTIN_VARIABLES)[number], (t: Thread) => string> = {
  current_date: () => "today's date when the run starts (set current_date to iso-date, readable-date or local-date-time for a format)",
  current_working_directory: (t) => t.settings?.cwd ?? 'the thread’s working directory (<home>/work/<thread id> unless set)',
  thread_title: (t) => t.title,
  available_skills: (t) => (t.settings?.skills?.length ? `the enabled skills, one "- name: description" line each (${t.settings.skills.join(', ')})` : 'the enabled skills (none enabled)'),
};

/** The variables of `thread` with the picked scenario applied, then the built-ins it does not redefine. */
export function templateVariables(thread: Thread): TemplateVariable[] {
  const ctx = thread.context;
  const scenario = ctx.scenario ? ctx.scenarios?.find((s) => s.name === ctx.scenario) : undefined;
  const own = { ...(ctx.variables ?? {}), ...(scenario?.variables ?? {}) };
  const types = ctx.variableTypes ?? {};
  const out: TemplateVariable[] = Object.entries(own).map(([name, value]) => {
    const kind = types[name] ?? 'text';
    return { name, kind, value: kind === 'file' ? `contents of ${value}` : value };
  });
  for (const name of BUILTIN_VARIABLES) if (!(name in own)) out.push({ name, kind: 'built-in', value: BUILTIN_VALUES[name](thread) });
  return out;
}
