/**
 * `stepwise export <thread.json> --run <runId|last|all> --format otlp-json [-o trace.json]`: a
 * thread's runs as OpenTelemetry GenAI traces, one trace per run, as OTLP/JSON
 * (`{ resourceSpans }`, docs/architecture.md#traces). Runs are read from the home's run files
 * (`runs/<threadId>/<runId>.json`), checked against the run record's schema. Writes to stdout
 * without -o, else atomically. Exit 2 naming the file, run or option on bad input.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import writeFileAtomic from 'write-file-atomic';
import { loadThreadFile, ThreadFileError } from '../../core/threads/thread-file';
import { defaultHome } from '../../core/host-core';
import { readRunChecked } from '../../core/journal/run-files';
import { HostError } from '../../core/errors';
import { runsToOtlpJson } from '../../core/traces/otel-export';
import { formatProblems } from './validate';
import type { RunRecord } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';

/** Export formats `stepwise export --format` takes. */
export const EXPORT_FORMATS = ['otlp-json'] as const;

interface ExportOptions {
  run: string;
  format: (typeof EXPORT_FORMATS)[number];
  output?: string;
  home?: string;
}

/** The run records `which` names (a run id, `last`, `all`) among the thread's run refs, oldest first. */
async function pickRuns(home: string, thread: Thread, which: string): Promise<RunRecord[]> {
  const refs = [...thread.runRefs].sort((a, b) => a.startedAt - b.startedAt);
  const ids = which === 'all' ? refs.map((r) => r.id) : which === 'last' ? refs.slice(-1).map((r) => r.id) : [which];
  if (!ids.length) throw new HostError('bad_request', `the thread "${thread.title}" has no runs (runRefs is empty)`);
  if (which !== 'all' && which !== 'last' && !refs.some((r) => r.id === which)) throw new HostError('bad_request', `--run ${which}: the thread has no run with that id (it has ${refs.length}: ${refs.map((r) => r.id).slice(0, 5).join(', ')}${refs.length > 5 ? ', …' : ''})`);
  const out: RunRecord[] = [];
  for (const id of ids) out.push(await readRunChecked(home, thread.id, id));
  return out;
}

async function exportThread(file: string, o: ExportOptions): Promise<void> {
  const home = path.resolve(o.home ?? defaultHome());
  let thread: Thread;
  try {
    thread = await loadThreadFile(file);
  } catch (err) {
    if (!(err instanceof ThreadFileError)) throw err;
    process.stderr.write(formatProblems(file, err));
    process.exitCode = 2;
    return;
  }
  let runs: RunRecord[];
  try {
    runs = await pickRuns(home, thread, o.run);
  } catch (err) {
    if (!(err instanceof HostError)) throw err;
    process.stderr.write(`stepwise export: ${file}: ${err.message}\n`);
    process.exitCode = 2;
    return;
  }
  const text = `${JSON.stringify(await runsToOtlpJson(thread, runs))}\n`;
  if (!o.output) return void process.stdout.write(text);
  await writeFileAtomic(o.output, text);
  const spans = runs.reduce((n, r) => n + r.nodes.length, 0);
  process.stderr.write(`${o.output}: ${runs.length} run${runs.length === 1 ? '' : 's'} as ${runs.length} trace${runs.length === 1 ? '' : 's'}, ${spans} span${spans === 1 ? '' : 's'} (OTLP/JSON)\n`);
}

/** Registers `stepwise export`. */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description("Export a thread's runs as OpenTelemetry GenAI traces (OTLP/JSON).")
    .argument('<thread>', 'thread file (.json)')
    .option('--run <run>', 'a run id, last or all', 'last')
    .addOption(new Option('--format <format>', 'output format').choices([...EXPORT_FORMATS]).default('otlp-json'))
    .option('-o, --output <file>', 'write here (atomically) instead of stdout')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .action((file: string, o: ExportOptions) => exportThread(file, o));
}
