/**
 * A skill's `SKILL.md` (the Agent Skills format of Claude Code and Codex): YAML front matter
 * between `---` lines holding at least `name` and `description`, then the instructions as
 * Markdown. Parsing never throws: a bad file yields a problem naming what is wrong.
 */
import { parse as parseYaml } from 'yaml';
import { MAX_SKILL_NAME } from './skill-info';

/** A parsed SKILL.md. */
export interface SkillDoc {
  name: string;
  description: string;
  /** The Markdown after the front matter. */
  body: string;
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Parses SKILL.md text: `{ ok: true, doc }`, or `{ ok: false, problem }` saying what is wrong. */
export function parseSkillMd(text: string): { ok: true; doc: SkillDoc } | { ok: false; problem: string } {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { ok: false, problem: 'SKILL.md does not start with YAML front matter between "---" lines' };
  let meta: unknown;
  try {
    meta = parseYaml(m[1], { logLevel: 'error' });
  } catch (err) {
    return { ok: false, problem: `the front matter of SKILL.md is not valid YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) return { ok: false, problem: 'the front matter of SKILL.md is not a mapping of keys to values' };
  const { name, description } = meta as Record<string, unknown>;
  if (typeof name !== 'string' || !name.trim()) return { ok: false, problem: 'the front matter of SKILL.md has no "name"' };
  if (name.trim().length > MAX_SKILL_NAME) return { ok: false, problem: `the skill name has more than ${MAX_SKILL_NAME} characters` };
  if (/[\s/\\]/.test(name.trim())) return { ok: false, problem: `the skill name ${JSON.stringify(name.trim())} holds a space or a slash` };
  if (typeof description !== 'string' || !description.trim()) return { ok: false, problem: `the front matter of SKILL.md has no "description"` };
  return { ok: true, doc: { name: name.trim(), description: description.trim(), body: text.slice(m[0].length) } };
}
