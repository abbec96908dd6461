/**
 * `stepwise branch <thread> --at <messageId> [-o out.json]`: writes a branch of a thread file
 * (docs/architecture.md#branches-and-time-travel) — the thread up to and including the message,
 * a new id, `branchOf` naming the source thread and message, no runs. Without `-o` the branch
 * goes beside the source as "<title> (branch).json" (numbered when taken). Prints the path
 * written. Exit 0, or 2 on bad input (unreadable thread, unknown message, `-o` file that exists:
 * never overwritten).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import type { Thread } from '../../../shared/thread/schema';
import { newId } from '../../../shared/thread/ids';
import { messagesThrough } from '../../../shared/thread/run-points';
import { branchOf, branchTitle } from '../../../shared/thread/branch';
import { loadThreadFile, saveThreadFile } from '../../core/threads/thread-file';
import { safeStem, THREAD_EXT } from '../../core/workspace/names';

class BadInput extends Error {}

const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);

/** The first free "<title> (branch[ n])" in `dir`: its title and file. */
async function besideSource(dir: string, title: string): Promise<{ title: string; file: string }> {
  for (let n = 1; ; n++) {
    const t = branchTitle(title, n);
    const file = path.join(dir, `${safeStem(t)}${THREAD_EXT}`);
    if (!(await exists(file))) return { title: t, file };
  }
}

/** Branches thread file `file` at message `at`; resolves with the path written. Throws BadInput. */
export async function branchThreadFile(file: string, at: string, out?: string): Promise<string> {
  let source: Thread;
  try {
    source = await loadThreadFile(file);
  } catch (err) {
    throw new BadInput((err as Error).message);
  }
  const messages = messagesThrough(source.context.messages, at);
  if (!messages) throw new BadInput(`${file} has no message with id ${JSON.stringify(at)} (its message ids: ${source.context.messages.map((m) => m.id).join(', ') || 'none'})`);
  let target: { title: string; file: string };
  if (out) {
    if (await exists(out)) throw new BadInput(`${out} already exists; give another -o file (a branch never overwrites one)`);
    target = { title: branchTitle(source.title), file: out };
  } else {
    target = await besideSource(path.dirname(path.resolve(file)), source.title);
  }
  const branch: Thread = { version: source.version, id: newId(), title: target.title, ...branchOf(source, messages, { messageId: at }), runRefs: [] };
  await saveThreadFile(target.file, branch);
  return target.file;
}

/** Registers `stepwise branch`. */
export function registerBranch(program: Command): void {
  program
    .command('branch')
    .description('Write a branch of a thread file: everything up to and including one message, linked to its source.')
    .argument('<thread>', 'thread file (.json)')
    .requiredOption('--at <messageId>', 'the last message the branch keeps')
    .option('-o, --out <file>', 'where to write the branch (default: "<title> (branch).json" beside the thread)')
    .action(async (file: string, opts: { at: string; out?: string }) => {
      try {
        process.stdout.write(`${await branchThreadFile(file, opts.at, opts.out)}\n`);
      } catch (err) {
        if (!(err instanceof BadInput)) throw err;
        process.stderr.write(`stepwise branch: ${err.message}\n`);
        process.exitCode = 2;
      }
    });
}
