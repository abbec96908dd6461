/**
 * `stepwise validate <file>`: loads a thread file the way the app does (parse, import a foreign
 * format, migrate, validate), and checks that no message id, tool call id or tool name repeats
 * (the app opens such a thread read-only until the repeats get new ids), and that every image,
 * audio, PDF and resource blob holds valid base64 (shared/thread/base64.ts). Exit 0 with one OK line
 * on stdout; exit 2 with every problem on stderr as `file:pointer: message` (syntax errors as
 * `file:line:column: message`).
 */
import type { Command } from 'commander';
import { loadThreadFileDetailed, ThreadFileError } from '../../core/threads/thread-file';
import { FORMAT_NAMES } from '../../../shared/thread/import';
import type { ThreadProblem } from '../../../shared/thread/validate';

/** Registers `stepwise validate`. */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('Check a thread file: JSON syntax, format, schema, repeated ids. Exit 0 when it is sound, 2 with every problem otherwise.')
    .argument('<file>', 'thread file (Stepwise, LLM Space, or an OpenAI/Anthropic request JSON)')
    .action(async (file: string) => {
      try {
        const { thread, format, idProblems, dataProblems } = await loadThreadFileDetailed(file);
        if (idProblems.length || dataProblems.length) {
          process.stderr.write(problemLines(file, [...idProblems, ...dataProblems]));
          process.exitCode = 2;
          return;
        }
        const n = thread.context.messages.length;
        const via = format === 'stepwise' ? '' : ` (read as ${FORMAT_NAMES[format]})`;
        process.stdout.write(`${file}: OK — "${thread.title}", ${n} message${n === 1 ? '' : 's'}, ${thread.context.tools.length} tool${thread.context.tools.length === 1 ? '' : 's'}${via}\n`);
      } catch (err) {
        if (!(err instanceof ThreadFileError)) throw err;
        process.stderr.write(formatProblems(file, err));
        process.exitCode = 2;
      }
    });
}

/** One line per problem: `file:pointer: message`, or `file:line:column: message` for syntax errors. */
export function formatProblems(file: string, err: ThreadFileError): string {
  if (err.position) {
    const msg = err.problems[0]?.message.replace(/^line \d+, column \d+: /, '') ?? err.message;
    return `${file}:${err.position.line}:${err.position.column}: ${msg}\n`;
  }
  return problemLines(file, err.problems);
}

/** `file:pointer: message`, one line per problem (`file: message` for the file as a whole). */
function problemLines(file: string, problems: ThreadProblem[]): string {
  return problems.map((p) => `${p.pointer ? `${file}:${p.pointer}` : file}: ${p.message}\n`).join('');
}
