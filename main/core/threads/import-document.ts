/**
 * Import from the UI (`workspace.import`): a dropped file's or pasted text is detected and
 * converted (shared/thread/import/), written as a new thread file in the workspace, and the run
 * records it brings (LLM Space run history) are written to runs/<threadId>/. The result names
 * the format found and lists what could not be kept. Errors name the document by the name the
 * client gave, never a path on the host.
 */
import fs from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { parseJsonText } from '../../../shared/thread/json-text';
import { FORMAT_NAMES, ImportError, importDocument } from '../../../shared/thread/import';
import { newId } from '../../../shared/thread/ids';
import { unsupportedVersion } from '../../../shared/thread/migrate';
import type { HostParams, HostResult } from '../../../shared/protocol/host-api';
import { HostError } from '../errors';
import { runFile, runsDir } from '../journal/journal';
import type { HostContext } from '../host-context';

/** The title a file name gives: without its folder and extension. */
function titleOf(name: string | undefined): string | undefined {
  const base = name?.split(/[\\/]/).pop()?.replace(/\.(json|jsonc|txt)$/i, '').trim();
  return base || undefined;
}

/** Converts and writes the document; throws HostError('bad_request') naming what is wrong and where. */
export async function importIntoWorkspace(ctx: HostContext, p: HostParams<'workspace.import'>): Promise<HostResult<'workspace.import'>> {
  const what = p.name ? JSON.stringify(p.name) : 'the pasted text';
  const parsed = parseJsonText(p.text);
  if (!parsed.ok) {
    const e = parsed.problem;
    throw new HostError('bad_request', `${what} is not JSON: line ${e.line}, column ${e.column}: ${e.message}`);
  }
  const newer = unsupportedVersion(parsed.value);
  if (newer) throw new HostError('bad_request', `${what}: /version: ${newer}`);
  let r;
  try {
    r = importDocument(parsed.value, { title: titleOf(p.name) });
  } catch (err) {
    if (err instanceof ImportError) throw new HostError('bad_request', `${what}: ${err.message}`);
    throw err;
  }
  const notKept = r.notes.map((n) => (n.pointer ? `${n.pointer}: ${n.message}` : n.message));
  let thread = r.thread;
  if (r.format === 'stepwise') {
    // A copy, not the same thread: a new id (the original may be open), and its runs stay with the original.
    if (thread.runRefs.length) notKept.push(`/runRefs: the ${thread.runRefs.length} run(s) of the original thread stay with it (run records live outside the thread file)`);
    thread = { ...thread, id: newId(), runRefs: [] };
  }
  if (r.runs.length) {
    await fs.mkdir(runsDir(ctx.home, thread.id), { recursive: true });
    for (const run of r.runs) await writeFileAtomic(runFile(ctx.home, thread.id, run.runId), JSON.stringify(run));
  }
  const entry = await ctx.workspace.createWhole(p.folder ?? '', thread);
  return { entry, format: r.format, formatName: FORMAT_NAMES[r.format], runs: r.runs.length, notKept };
}
