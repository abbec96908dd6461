/**
 * The built-in tools that change files: `write`, `edit` (exact string replace) and
 * `apply_patch` (unified diff, applied with the `diff` package). Each is planned first —
 * before and after texts, without writing — so that a call held for approval can show its
 * diff (`preview`), and a multi-file patch is written only when every file applies.
 * Result `structuredContent`: a `FileChange`, or `FileChanges` for several files
 * (shared/tools/builtin-results.ts).
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type * as DiffLib from 'diff';
import type { ToolOutput } from '../../../shared/thread/messages';
import { toolErrorOutput, toolOutput } from '../../../shared/thread/tool-output';
import type { BuiltinPreview, FileChange, FileChanges } from '../../../shared/tools/builtin-results';
import { fsProblem, resolveToolPath, shownPath } from './confine';
import { MAX_READ_BYTES } from './files-read';

type Args = Record<string, unknown>;
type Plan = { abs: string; change: FileChange }[];
const s = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Thrown by a planner: the message goes to the model as it stands. */
class PlanError extends Error {}

async function current(abs: string, given: string): Promise<string | null> {
  const st = await stat(abs).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!st) return null;
  if (st.isDirectory()) throw new PlanError(`"${given}" is a folder, not a file`);
  if (st.size > MAX_READ_BYTES) throw new PlanError(`"${given}" is ${st.size} bytes; file tools change files of at most ${MAX_READ_BYTES} bytes`);
  return readFile(abs, 'utf8');
}

/** The `diff` package, loaded on the first file tool call (an ordinary run never loads it). */
let diffLib: typeof DiffLib | undefined;
async function loadDiff(): Promise<typeof DiffLib> {
  diffLib ??= await import('diff');
  return diffLib;
}

function change(shown: string, before: string | null, after: string): FileChange {
  const diff = diffLib!.createTwoFilesPatch(before === null ? '/dev/null' : `a/${shown}`, `b/${shown}`, before ?? '', after);
  return { kind: 'file_change', path: shown, before, after, diff };
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

async function planWrite(cwd: string, a: Args): Promise<Plan> {
  const abs = await resolveToolPath(cwd, s(a.path));
  return [{ abs, change: change(shownPath(cwd, abs), await current(abs, s(a.path)), s(a.content)) }];
}

async function planEdit(cwd: string, a: Args): Promise<Plan> {
  const given = s(a.path);
  const oldString = s(a.old_string);
  if (!oldString) throw new PlanError('old_string is empty; give the exact text to replace (use write to create a file)');
  const abs = await resolveToolPath(cwd, given);
  const before = await current(abs, given);
  if (before === null) throw new PlanError(`"${given}" does not exist; use write to create it`);
  const n = count(before, oldString);
  if (n === 0) throw new PlanError(`old_string was not found in "${given}" (0 occurrences); read the file and copy the text exactly, whitespace included`);
  if (n > 1 && a.replace_all !== true) throw new PlanError(`old_string occurs ${n} times in "${given}"; it must be unique: add surrounding lines, or set replace_all`);
  const after = a.replace_all === true ? before.split(oldString).join(s(a.new_string)) : before.replace(oldString, () => s(a.new_string));
  return [{ abs, change: change(shownPath(cwd, abs), before, after) }];
}

const stripPrefix = (name: string | undefined): string | undefined => (name === undefined || name === '/dev/null' ? undefined : name.replace(/^[ab]\//, '').replace(/\t.*$/, ''));

async function planPatch(cwd: string, a: Args): Promise<Plan> {
  const { applyPatch, parsePatch } = await loadDiff();
  let parsed: ReturnType<typeof parsePatch>;
  try {
    parsed = parsePatch(s(a.patch));
  } catch (err) {
    throw new PlanError(`the patch is not a valid unified diff: ${(err as Error).message}`);
  }
  const files = parsed.filter((p) => p.hunks.length > 0);
  if (!files.length) throw new PlanError('the patch has no hunks (expected a unified diff with ---/+++ headers and @@ hunks)');
  const plan: Plan = [];
  for (const p of files) {
    const target = stripPrefix(p.newFileName) ?? stripPrefix(p.oldFileName);
    if (!target) throw new PlanError('a file in the patch has no name');
    if (stripPrefix(p.newFileName) === undefined) throw new PlanError(`the patch deletes "${target}"; apply_patch does not delete files (use bash)`);
    const abs = await resolveToolPath(cwd, target);
    const existing = plan.find((x) => x.abs === abs);
    const before = existing ? existing.change.after : await current(abs, target);
    const isNew = stripPrefix(p.oldFileName) === undefined;
    if (isNew && before !== null) throw new PlanError(`the patch creates "${target}", which already exists`);
    if (!isNew && before === null) throw new PlanError(`the patch changes "${target}", which does not exist`);
    const after = applyPatch(before ?? '', p);
    if (after === false) throw new PlanError(`the patch does not apply to "${target}": its context lines do not match the file (read it again and rebuild the patch)`);
    const shown = shownPath(cwd, abs);
    if (existing) existing.change = change(shown, existing.change.before, after);
    else plan.push({ abs, change: change(shown, before, after) });
  }
  return plan;
}

const PLANNERS: Record<string, (cwd: string, a: Args) => Promise<Plan>> = { write: planWrite, edit: planEdit, apply_patch: planPatch };

function structured(plan: Plan): FileChange | FileChanges {
  return plan.length === 1 ? plan[0].change : { kind: 'file_changes', changes: plan.map((p) => p.change) };
}

/** Runs `write`, `edit` or `apply_patch` (`name`) in `cwd`. */
export async function fileChangeTool(name: string, cwd: string, a: Args): Promise<ToolOutput> {
  let plan: Plan;
  await loadDiff();
  try {
    plan = await PLANNERS[name](cwd, a);
  } catch (err) {
    return toolErrorOutput(`${name}: ${err instanceof PlanError ? err.message : fsProblem(s(a.path), err)}.`);
  }
  try {
    for (const { abs, change: c } of plan) {
      await mkdir(path.dirname(abs), { recursive: true });
      await writeFile(abs, c.after, 'utf8');
    }
  } catch (err) {
    return toolErrorOutput(`${name}: writing failed: ${fsProblem(s(a.path), err)}.`);
  }
  const summary = plan.map(({ change: c }) => `${c.before === null ? 'Created' : 'Changed'} ${c.path}`).join('\n');
  return { ...toolOutput(`${summary}\n\n${plan.map((p) => p.change.diff).join('\n')}`), structuredContent: structured(plan) };
}

/**
 * What the approval card shows before a file tool runs: `{kind:'file_change', path, diff}`
 * (several files: `{kind:'file_changes', changes:[{path, diff}]}`), or `{kind:'error', message}`
 * when the call would fail. Writes nothing.
 */
export async function fileChangePreview(name: string, cwd: string, a: Args): Promise<BuiltinPreview> {
  await loadDiff();
  try {
    const plan = await PLANNERS[name](cwd, a);
    const brief = plan.map(({ change: c }) => ({ kind: 'file_change' as const, path: c.path, diff: c.diff }));
    return brief.length === 1 ? brief[0] : { kind: 'file_changes', changes: brief };
  } catch (err) {
    return { kind: 'error', message: err instanceof PlanError ? err.message : fsProblem(s(a.path), err) };
  }
}
