/**
 * What the host lists of a skill (`settings.skills`) and what a run gets of an enabled one
 * (RunSpec.skills). Parsing SKILL.md is in skill-md.ts; finding skills in main/core/skills/.
 */
import { Type as T, type Static } from '@sinclair/typebox';

/** Longest skill name (the Agent Skills rule, also a tool-name length). */
export const MAX_SKILL_NAME = 64;

/** A skill as listed: where it comes from and what it says it is for. */
export const SkillInfoSchema = T.Object({
  name: T.String({ minLength: 1 }),
  description: T.String(),
  /** Which skills folder holds it: `stepwise` (`<home>/skills`), `claude`, `agents` or `codex` (`~/.<source>/skills`). */
  source: T.String(),
  /** Its folder for display, `~/.claude/skills/<folder>` or `<home>/skills/<folder>`. */
  location: T.String(),
  /** Why the skill cannot be used (its SKILL.md does not parse, or an earlier folder has its name). */
  problem: T.Optional(T.String()),
});
export type SkillInfo = Static<typeof SkillInfoSchema>;

/** An enabled skill as a run gets it: the runner's `skill` tool reads `<dir>/SKILL.md` and lists `files`. */
export const RunSkillSchema = T.Object({
  name: T.String({ minLength: 1 }),
  description: T.String(),
  /** Absolute path of the skill's folder (the runner reads only SKILL.md there). */
  dir: T.String({ minLength: 1 }),
  /** The folder's files, relative, '/'-separated, at most 200. */
  files: T.Array(T.String()),
});
export type RunSkill = Static<typeof RunSkillSchema>;

/** The `available_skills` template variable: one `- name: description` line per skill, '' when none. */
export function availableSkillsText(skills: readonly { name: string; description: string }[]): string {
  return skills.map((s) => `- ${s.name}: ${s.description.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}
