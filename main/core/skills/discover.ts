/**
 * Finds skills: folders holding a `SKILL.md` directly under Stepwise's own `<home>/skills`
 * and the folders other agents use, `~/.claude/skills`, `~/.agents/skills`, `~/.codex/skills`
 * (searched in that order; the first skill of a name wins, a later one of the same name is
 * listed with a problem). A missing skills folder is no error; a SKILL.md that does not parse is
 * listed with what is wrong. The runner gets the enabled ones' folders in its RunSpec
 * (`runSkills`), so it never searches home folders itself.
 */
import { promises as fs } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { parseSkillMd } from '../../../shared/skills/skill-md';
import type { RunSkill, SkillInfo } from '../../../shared/skills/skill-info';

/** A SKILL.md larger than this is not read (bytes). */
export const MAX_SKILL_MD_BYTES = 256 * 1024;
/** Files listed per skill, and folder depth searched for them. */
const MAX_FILES = 200;
const MAX_DEPTH = 4;

/** One folder searched for skills. */
export interface SkillRoot {
  source: string;
  dir: string;
  /** How the folder is shown to a client: never an absolute path. */
  display: string;
}

/** The skills folders, in search order: `<home>/skills`, then `~/.claude`, `~/.agents`, `~/.codex` skills. */
export function skillRoots(home: string, userHome: string): SkillRoot[] {
  return [
    { source: 'stepwise', dir: join(home, 'skills'), display: '<home>/skills' },
    ...['claude', 'agents', 'codex'].map((s) => ({ source: s, dir: join(userHome, `.${s}`, 'skills'), display: `~/.${s}/skills` })),
  ];
}

/** A found skill with its folder (host side only: `dir` is absolute). */
export interface FoundSkill extends SkillInfo {
  dir: string;
}

async function isDir(path: string): Promise<boolean> {
  return fs.stat(path).then((s) => s.isDirectory(), () => false);
}

/** The skill in `dir`, or undefined when the folder holds no SKILL.md. */
async function readSkill(root: SkillRoot, folder: string): Promise<FoundSkill | undefined> {
  const dir = join(root.dir, folder);
  const file = join(dir, 'SKILL.md');
  const base = { source: root.source, location: `${root.display}/${folder}`, dir };
  const st = await fs.stat(file).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  if (st.size > MAX_SKILL_MD_BYTES) return { ...base, name: folder, description: '', problem: `SKILL.md is larger than ${MAX_SKILL_MD_BYTES / 1024} KiB` };
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    return { ...base, name: folder, description: '', problem: `SKILL.md could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  const parsed = parseSkillMd(text);
  if (!parsed.ok) return { ...base, name: folder, description: '', problem: parsed.problem };
  return { ...base, name: parsed.doc.name, description: parsed.doc.description };
}

/** Every skill in `roots`, in search order, folders sorted by name. Never throws. */
export async function discoverSkills(roots: SkillRoot[]): Promise<FoundSkill[]> {
  const out: FoundSkill[] = [];
  const seen = new Map<string, string>();
  for (const root of roots) {
    const entries = await fs.readdir(root.dir, { withFileTypes: true }).catch(() => []);
    const folders = entries.filter((e) => !e.name.startsWith('.')).map((e) => e.name).sort();
    for (const folder of folders) {
      if (!(await isDir(join(root.dir, folder)))) continue; // follows symlinked skill folders
      const skill = await readSkill(root, folder);
      if (!skill) continue;
      const first = seen.get(skill.name);
      if (first && !skill.problem) skill.problem = `${first} already has a skill named ${JSON.stringify(skill.name)}`;
      else if (!skill.problem) seen.set(skill.name, skill.location);
      out.push(skill);
    }
  }
  return out;
}

/** What a client is shown of the skills: no absolute folder. */
export function listedSkills(found: FoundSkill[]): SkillInfo[] {
  return found.map(({ dir: _dir, ...info }) => info);
}

/** The files of a skill's folder, relative and '/'-separated, in code-unit order (SKILL.md before lower-case names); dot-entries skipped. */
export async function skillFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  const walk = async (at: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(at, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (files.length >= MAX_FILES || e.name.startsWith('.')) continue;
      const path = join(at, e.name);
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) await walk(path, depth + 1);
      } else if (e.isFile()) files.push(relative(dir, path).split(sep).join('/'));
    }
  };
  await walk(dir, 1);
  return files.sort();
}

/**
 * The skills named in `names` that were found without a problem, each with its folder and
 * files, as a RunSpec carries them. Names not found are left out (the `skill` tool says so).
 */
export async function runSkills(roots: SkillRoot[], names: readonly string[]): Promise<RunSkill[]> {
  if (!names.length) return [];
  const found = (await discoverSkills(roots)).filter((s) => !s.problem && names.includes(s.name));
  return Promise.all(found.map(async (s) => ({ name: s.name, description: s.description, dir: s.dir, files: await skillFiles(s.dir) })));
}
