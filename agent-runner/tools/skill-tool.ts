/**
 * The `skill` built-in tool: loads one of the thread's enabled skills, its SKILL.md
 * instructions (after the front matter) and the list of its files, for the model to follow.
 * It reads only the folders the host put in the RunSpec (`spec.skills`, found by
 * main/core/skills/discover.ts), and in them only SKILL.md: the runner never searches home folders.
 */
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '../../shared/thread/tools';
import type { ToolCall, ToolOutput } from '../../shared/thread/messages';
import type { RunSkill } from '../../shared/skills/skill-info';
import { toolErrorOutput } from '../../shared/thread/tool-output';
import type { ToolExecutor } from './types';

/** The tool's name, as a thread's `builtin` tool entry names it. */
export const SKILL_TOOL_NAME = 'skill';

/** JSON Schema of the tool's arguments: `{ name }`, a skill listed in `available_skills`. */
export const SKILL_TOOL_PARAMETERS = {
  type: 'object',
  properties: { name: { type: 'string', description: 'The name of the skill to load, as listed in the available skills.' } },
  required: ['name'],
  additionalProperties: false,
} as const;

/** A SKILL.md larger than this is refused (bytes; the host lists it with a problem too). */
const MAX_BYTES = 256 * 1024;

/** The result the model reads: the skill's instructions, its folder and its files. */
export function skillText(skill: RunSkill, body: string): string {
  const files = skill.files.length ? skill.files.map((f) => `- ${f}`).join('\n') : '(none)';
  return `# Skill: ${skill.name}\n\n${body.trim()}\n\nSkill folder: ${skill.dir}\nFiles in the skill folder:\n${files}`;
}

/** Loads `name` from `skills`: its output, or an error output saying what is wrong. */
export async function loadSkill(skills: readonly RunSkill[], name: unknown): Promise<ToolOutput> {
  const enabled = skills.map((s) => s.name);
  const list = enabled.length ? `enabled skills: ${enabled.join(', ')}` : 'this thread has no skills enabled (enable some under Tools → Skills)';
  if (typeof name !== 'string' || !name.trim()) return toolErrorOutput(`skill: give "name", the skill to load; ${list}.`);
  const skill = skills.find((s) => s.name === name.trim());
  if (!skill) return toolErrorOutput(`skill: no enabled skill named ${JSON.stringify(name)}; ${list}.`);
  let text: string;
  try {
    const file = join(skill.dir, 'SKILL.md');
    const st = await fs.stat(file);
    if (st.size > MAX_BYTES) return toolErrorOutput(`skill ${skill.name}: SKILL.md is larger than ${MAX_BYTES / 1024} KiB.`);
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    return toolErrorOutput(`skill ${skill.name}: SKILL.md could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); it may have been moved since the run started.`);
  }
  // Loaded on first use: SKILL.md's YAML parser was most of the runner's start-up CPU, before
  // its first envelope, in runs that load no skill (docs/architecture.md#processes-and-state).
  const { parseSkillMd } = await import('../../shared/skills/skill-md');
  const parsed = parseSkillMd(text);
  if (!parsed.ok) return toolErrorOutput(`skill ${skill.name}: ${parsed.problem}.`);
  return {
    content: [{ type: 'text', text: skillText(skill, parsed.doc.body) }],
    isError: false,
    structuredContent: { kind: 'skill', name: skill.name, description: parsed.doc.description, files: skill.files },
  };
}

/** The executor of the `skill` built-in tool over the run's enabled skills. */
export function skillToolExecutor(skills: readonly RunSkill[] | undefined): ToolExecutor {
  return {
    handles: (tool: Tool) => tool.type === 'builtin' && tool.name === SKILL_TOOL_NAME,
    execute: (_tool: Tool, call: ToolCall) => loadSkill(skills ?? [], (call.arguments as { name?: unknown }).name),
  };
}
