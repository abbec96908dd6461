/**
 * `stepwise import <file> [-o out.json] [--format F] [--title T]`: converts an LLM Space thread
 * file, or an OpenAI Chat Completions / OpenAI Responses / Anthropic Messages request JSON, into
 * a Stepwise thread. Writes to stdout without -o, else atomically to the file. Exit 2 with a
 * clear message for an unknown format (naming what was looked for) or anything it cannot convert.
 */
import { Command, Option } from 'commander';
import { readRegularFile } from '../../../shared/regular-file.node.js';
import { parseThreadText, saveThreadFile, serializeThread, ThreadFileError } from '../../core/threads/thread-file';
import { FORMAT_NAMES, IMPORT_FORMATS, type ThreadFormat } from '../../../shared/thread/import';
import { formatProblems } from './validate';

/** Registers `stepwise import`. */
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('Convert an LLM Space thread or an OpenAI / Anthropic request JSON into a Stepwise thread.')
    .argument('<file>', 'the document to import')
    .option('-o, --output <file>', 'write the thread here (atomically) instead of stdout')
    .addOption(new Option('--format <format>', 'skip detection and read the file as this format').choices([...IMPORT_FORMATS]))
    .option('--title <title>', 'title of the new thread (default: its own title, or the start of the first user message)')
    .action(async (file: string, opts: { output?: string; format?: ThreadFormat; title?: string }) => {
      let text: string;
      try {
        text = await readRegularFile(file);
      } catch (err) {
        process.stderr.write(`stepwise import: cannot read ${file}: ${(err as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      try {
        const { thread, format } = parseThreadText(file, text, { format: opts.format, title: opts.title });
        if (opts.title) thread.title = opts.title;
        if (opts.output) {
          await saveThreadFile(opts.output, thread);
          const n = thread.context.messages.length;
          process.stderr.write(`${opts.output}: wrote "${thread.title}" (${n} message${n === 1 ? '' : 's'}) from ${FORMAT_NAMES[format]}\n`);
        } else {
          process.stdout.write(serializeThread(thread));
        }
      } catch (err) {
        if (!(err instanceof ThreadFileError)) throw err;
        process.stderr.write(err.kind === 'format' && !err.position ? `stepwise import: ${err.message}\n` : formatProblems(file, err));
        process.exitCode = 2;
      }
    });
}
