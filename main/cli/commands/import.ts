/**
 * `stepwise import <file> [-o out.json] [--format F] [--title T] [--home H]`: converts an LLM
 * Space thread file, an OpenAI Chat Completions / OpenAI Responses / Anthropic Messages request
 * JSON, or an OpenTelemetry GenAI trace (OTLP/JSON) into a Stepwise thread; the runs a trace or
 * an LLM Space file brings are written to the home's run files. Writes to stdout without -o, else atomically to the file. Exit 2 with a
 * clear message for an unknown format (naming what was looked for) or anything it cannot convert.
 */
import { Command, Option } from 'commander';
import { readRegularFile } from '../../../shared/regular-file.node.js';
import { parseThreadText, saveThreadFile, serializeThread, ThreadFileError } from '../../core/threads/thread-file';
import { FORMAT_NAMES, IMPORT_FORMATS, importDocument, type ThreadFormat } from '../../../shared/thread/import';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import writeFileAtomic from 'write-file-atomic';
import { defaultHome } from '../../core/host-core';
import { runFile, runsDir } from '../../core/journal/journal';
import type { RunRecord } from '../../../shared/protocol/host-api';

/** Writes imported run records as the home's run files (runs/<threadId>/<runId>.json). */
async function writeRuns(home: string, threadId: string, runs: RunRecord[]): Promise<void> {
  if (!runs.length) return;
  await mkdir(runsDir(home, threadId), { recursive: true });
  for (const r of runs) await writeFileAtomic(runFile(home, threadId, r.runId), JSON.stringify(r));
}
import { formatProblems } from './validate';

/** Registers `stepwise import`. */
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('Convert an LLM Space thread, an OpenAI / Anthropic request JSON or an OpenTelemetry GenAI trace (OTLP/JSON) into a Stepwise thread.')
    .argument('<file>', 'the document to import')
    .option('-o, --output <file>', 'write the thread here (atomically) instead of stdout')
    .addOption(new Option('--format <format>', 'skip detection and read the file as this format').choices([...IMPORT_FORMATS]))
    .option('--title <title>', 'title of the new thread (default: its own title, or the start of the first user message)')
    .option('--home <dir>', 'Stepwise home the runs of a trace or LLM Space file go to (default $STEPWISE_HOME or ~/.stepwise)')
    .action(async (file: string, opts: { output?: string; format?: ThreadFormat; title?: string; home?: string }) => {
      let text: string;
      try {
        text = await readRegularFile(file);
      } catch (err) {
        process.stderr.write(`stepwise import: cannot read ${file}: ${(err as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      try {
        const loaded = parseThreadText(file, text, { format: opts.format, title: opts.title });
        const format = loaded.format;
        let thread = loaded.thread;
        if (format === 'otlp-genai' || format === 'llmspace') {
          // A document with runs: the runs go to the home's run files, and what was not kept is listed.
          const doc = importDocument(JSON.parse(text), { format, ...(opts.title ? { title: opts.title } : {}) });
          thread = doc.thread;
          await writeRuns(path.resolve(opts.home ?? defaultHome()), thread.id, doc.runs);
          if (doc.runs.length) process.stderr.write(`stepwise import: ${doc.runs.length} run${doc.runs.length === 1 ? '' : 's'} written to ${runsDir(path.resolve(opts.home ?? defaultHome()), thread.id)}\n`);
          for (const n of doc.notes.slice(0, 50)) process.stderr.write(`stepwise import: not kept: ${n.pointer ? `${n.pointer}: ` : ''}${n.message}\n`);
          if (doc.notes.length > 50) process.stderr.write(`stepwise import: not kept: … and ${doc.notes.length - 50} more\n`);
        }
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
