/**
 * `stepwise eval <thread> --dataset <file> [--variant <spec>]… [--concurrency N]
 * [--isolation reuse|fresh] [--junit out.xml] [--json out.json] [--queue redis://HOST:PORT]
 * [--resume <batch folder>]`: runs every case × variant of a dataset
 * (docs/architecture.md#evaluation), each case's run in a runner process (reused across cases,
 * or fresh per case), checks the assertions, and prints a summary per variant.
 * Exit codes: 0 every assertion passed; 1 an assertion failed; 2 bad input; 3 a case could not
 * run (its process died, its provider failed, a check could not be made); 130 cancelled by
 * Ctrl-C (the finished cases are kept: `--resume` runs the rest).
 */
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { loadThreadFile, ThreadFileError } from '../../core/threads/thread-file';
import { summarize } from '../../../shared/eval/results';
import { runBatch, type BatchProgress } from '../../core/eval/batch';
import { BATCH_FILE, RESULTS_FILE, readBatchSpec, writeBatchSpec, type BatchSpec } from '../../core/eval/batch-files';
import { variantProblems } from '../../core/eval/variants';
import { LocalScheduler, type CaseScheduler } from '../../core/eval/scheduler';
import { parseIsolation, type CaseIsolation } from '../../core/eval/case-run';
import { parseQueueUrl } from '../../core/eval/redis-scheduler';
import { redisScheduler } from './eval-queue';
import { junitXml, jsonReport } from '../../core/eval/reports';
import { caseLine, inDatasetOrder, plural, reportPathProblems, summaryLine, skippedLinesWarning, writeReports, fmtMs, type ReportTarget } from './eval-output';
import { terminalField, terminalText } from '../terminal-text';
import { safeStem } from '../../core/workspace/names';
import { DEFAULT_MAX_TURNS } from '../../../shared/thread/defaults';
import { MAX_BATCH_CONCURRENCY, MAX_BATCH_VARIANTS } from '../../../shared/protocol/contract/eval-methods';
import { emptyAssertionsWarning, readAssertionsArg, readDatasetFile, readVariants, resumeFolderProblem, uncheckedExpected, withAssertions } from './eval-input';
import { startCliCore } from '../cli-core';
import { onStopSignals } from '../stop-signals';
import { formatProblems } from './validate';

interface EvalOptions {
  dataset?: string;
  variant: string[];
  /** Absent unless given: a new batch then runs DEFAULT_CONCURRENCY cases at a time, a resumed one its saved concurrency. */
  concurrency?: string;
  maxTurns?: string;
  /** Each `--assertions` given, in order (repeatable: every list is added). */
  assertions: string[];
  junit?: string;
  json?: string;
  queue?: string;
  resume?: string;
  out?: string;
  home?: string;
  name?: string;
  isolation?: string;
}

class BadInput extends Error {}

/** Cases at a time when `--concurrency` is not given (and the batch is new). */
const DEFAULT_CONCURRENCY = 4;

function positiveInt(v: string | undefined, flag: string, dflt: number, max = Number.MAX_SAFE_INTEGER): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new BadInput(`${flag} must be a positive whole number, not ${JSON.stringify(v)}`);
  if (n > max) throw new BadInput(`${flag} may be at most ${max}, not ${n}`);
  return n;
}

/**
 * The batch to run: a new one from the arguments, or the one in `--resume`'s folder. A resumed
 * batch keeps what it was asked (thread, dataset, variants, turn cap) except its concurrency:
 * an explicit `--concurrency` wins and is written to its batch file.
 */
async function prepare(threadFile: string | undefined, o: EvalOptions, workspaceDir: string, schedulerName: string): Promise<{ spec: BatchSpec; dir: string }> {
  if (o.resume) {
    const dir = path.resolve(o.resume);
    let spec: BatchSpec;
    try {
      spec = await readBatchSpec(dir);
    } catch (err) {
      // A BatchFileError names the file and the fields; any other is the read's (a folder gone since the check above).
      const code = (err as NodeJS.ErrnoException).code;
      throw new BadInput(`--resume ${o.resume}: ${code ? `cannot read ${BATCH_FILE} (${code})` : (err as Error).message}`);
    }
    if (o.concurrency !== undefined) {
      const concurrency = positiveInt(o.concurrency, '--concurrency', DEFAULT_CONCURRENCY, MAX_BATCH_CONCURRENCY);
      if (concurrency !== spec.concurrency) {
        spec = { ...spec, concurrency };
        await writeBatchSpec(dir, spec);
      }
    }
    return { spec, dir };
  }
  if (!threadFile) throw new BadInput('give the thread file to evaluate (or --resume <batch folder>)');
  if (!o.dataset) throw new BadInput('--dataset <file> is required (a .dataset.json, .jsonl or .csv file, or a promptfoo tests file)');
  let thread;
  try {
    thread = await loadThreadFile(path.resolve(threadFile));
  } catch (err) {
    if (err instanceof ThreadFileError) throw new BadInput(formatProblems(threadFile, err).trimEnd());
    throw new BadInput(`${threadFile}: ${(err as Error).message}`);
  }
  let dataset;
  const emptyWarnings: string[] = [];
  try {
    dataset = await readDatasetFile(o.dataset);
    const read = await Promise.allSettled(o.assertions.map(readAssertionsArg));
    const failed = read.flatMap((r) => (r.status === 'rejected' ? [(r.reason as Error).message] : []));
    if (failed.length) throw new Error(failed.join('\n'));
    const lists = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    for (const given of lists) dataset = withAssertions(dataset, given.assertions);
    const filled = lists.some((l) => l.assertions.length > 0);
    for (const given of lists) {
      const warning = emptyAssertionsWarning(given, dataset, filled);
      if (warning) emptyWarnings.push(warning);
    }
  } catch (err) {
    throw new BadInput((err as Error).message);
  }
  if (!dataset.cases.length) throw new BadInput(`${o.dataset}: the dataset has no cases`);
  let variants;
  try {
    variants = readVariants(o.variant);
  } catch (err) {
    throw new BadInput((err as Error).message);
  }
  if (variants.length > MAX_BATCH_VARIANTS) throw new BadInput(`a batch may have at most ${MAX_BATCH_VARIANTS} variants, not ${variants.length}`);
  const problems = variantProblems(variants, thread);
  if (problems.length) throw new BadInput(problems.join('\n'));
  for (const w of emptyWarnings) process.stderr.write(`stepwise eval: ${terminalText(w)}\n`);
  const unchecked = uncheckedExpected(dataset);
  if (unchecked) {
    process.stderr.write(
      `stepwise eval: ${unchecked === 1 ? '1 case has' : `${unchecked} cases have`} an expected value but no assertion compares with it (add {"type":"equals"} or {"type":"contains"} without a value)\n`,
    );
  }
  const id = `${new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19)}-${randomUUID().slice(0, 6)}`;
  const dir = path.join(o.out ? path.resolve(o.out) : path.join(workspaceDir, 'evals', safeStem(dataset.name)), id);
  const spec: BatchSpec = {
    id,
    name: o.name ?? dataset.name,
    createdAt: Date.now(),
    threadFile: path.resolve(threadFile),
    thread,
    datasetFile: path.resolve(o.dataset),
    dataset,
    variants,
    concurrency: positiveInt(o.concurrency, '--concurrency', DEFAULT_CONCURRENCY, MAX_BATCH_CONCURRENCY),
    maxTurns: positiveInt(o.maxTurns, '--max-turns', DEFAULT_MAX_TURNS),
    scheduler: schedulerName,
  };
  await writeBatchSpec(dir, spec);
  return { spec, dir };
}

/** What a resumed batch would ignore: it runs as it was first asked. */
function ignoredByResume(threadFile: string | undefined, o: EvalOptions): string[] {
  const given: [boolean, string][] = [
    [threadFile !== undefined, 'the thread argument'],
    [o.dataset !== undefined, '--dataset'],
    [o.variant.length > 0, '--variant'],
    [o.assertions.length > 0, '--assertions'],
    [o.maxTurns !== undefined, '--max-turns'],
    [o.out !== undefined, '--out'],
    [o.name !== undefined, '--name'],
  ];
  return given.filter(([on]) => on).map(([, what]) => what);
}

/** Runs the command; resolves with the exit code. */
export async function evalCommand(threadFile: string | undefined, o: EvalOptions): Promise<number> {
  // Everything printed may quote the input (case ids, variant names, dataset lines): escaped.
  const err = (s: string) => process.stderr.write(`${terminalText(s)}\n`);
  let queueUrl: URL | undefined;
  let isolation: CaseIsolation;
  const reports: ReportTarget[] = [];
  if (o.junit) reports.push({ flag: '--junit', file: o.junit });
  if (o.json) reports.push({ flag: '--json', file: o.json });
  try {
    isolation = parseIsolation(o.isolation);
    positiveInt(o.concurrency, '--concurrency', DEFAULT_CONCURRENCY, MAX_BATCH_CONCURRENCY);
    positiveInt(o.maxTurns, '--max-turns', DEFAULT_MAX_TURNS);
    if (o.queue) queueUrl = parseQueueUrl(o.queue);
    const ignored = o.resume ? ignoredByResume(threadFile, o) : [];
    if (ignored.length) throw new Error(`--resume runs the batch as it was first asked; it would ignore ${ignored.join(', ')} (leave them out)`);
    const notABatch = o.resume ? await resumeFolderProblem(o.resume) : undefined;
    if (notABatch) throw new Error(notABatch);
    const unwritable = await reportPathProblems(reports);
    if (unwritable.length) throw new Error(unwritable.join('\n'));
  } catch (e) {
    err((e as Error).message.split('\n').map((l) => `stepwise eval: ${l}`).join('\n'));
    return 2;
  }
  const cli = await startCliCore(o.home, 'stepwise eval');
  let scheduler: CaseScheduler | undefined;
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts++;
    if (interrupts === 1) err('\nstepwise eval: cancelling (finished cases are kept; --resume runs the rest)');
    controller.abort();
    if (interrupts > 1) process.exit(130);
  };
  const offSignals = onStopSignals(onSignal);
  try {
    scheduler = queueUrl ? redisScheduler(queueUrl, cli.core.home, err) : new LocalScheduler(cli.core, isolation);
    let prepared;
    try {
      prepared = await prepare(threadFile, o, cli.core.workspaceDir, scheduler.name);
    } catch (e) {
      if (!(e instanceof BadInput)) throw e;
      err(e.message.split('\n').map((l) => (l.startsWith('stepwise eval') ? l : `stepwise eval: ${l}`)).join('\n'));
      return 2;
    }
    const { spec, dir } = prepared;
    const tty = Boolean(process.stdout.isTTY);
    const show = (p: BatchProgress) => {
      if (!tty) return;
      const eta = p.etaMs !== undefined && p.done < p.total ? ` · about ${fmtMs(p.etaMs)} left` : '';
      process.stdout.write(`\r\x1b[2K${terminalField(spec.name)}: ${p.done}/${p.total} done · ${p.running} running · ${p.failed} not passed${eta}`);
    };
    if (!tty) process.stdout.write(`batch ${spec.id}: ${plural(spec.dataset.cases.length, 'case')} × ${plural(spec.variants.length, 'variant')}, concurrency ${spec.concurrency}, on ${scheduler.name}${scheduler instanceof LocalScheduler ? ` (${scheduler.isolation === 'reuse' ? 'runner processes reused across cases' : 'a fresh runner process per case'})` : ''}\n`);
    const outcome = await runBatch({
      spec,
      dir,
      scheduler,
      signal: controller.signal,
      onProgress: show,
      onResult: (r) => {
        if (!tty) process.stdout.write(caseLine(r));
      },
    });
    if (tty) process.stdout.write('\n');
    const names = spec.variants.map((v) => v.name);
    const results = inDatasetOrder(outcome.results, spec);
    for (const s of summarize(results, names)) process.stdout.write(summaryLine(s));
    const notRun = spec.dataset.cases.length * spec.variants.length - results.length;
    if (outcome.cancelled && notRun > 0) process.stdout.write(`cancelled: ${notRun} not run; --resume runs them\n`);
    process.stdout.write(`results: ${terminalText(dir)}\n`);
    if (outcome.skippedLines.length) err(skippedLinesWarning(path.join(dir, RESULTS_FILE), outcome.skippedLines));
    const texts: Record<ReportTarget['flag'], () => string> = {
      '--junit': () => junitXml(spec.name, results, names),
      '--json': () => jsonReport({ id: spec.id, name: spec.name, dir }, summarize(results, names), results),
    };
    // A report that cannot be written is said on stderr; the other is still written and the exit code stays the batch's.
    for (const problem of await writeReports(reports.map((target) => ({ target, text: texts[target.flag] })))) err(`stepwise eval: ${problem}`);
    if (outcome.cancelled) return 130;
    if (outcome.results.some((r) => r.status === 'error')) return 3;
    if (outcome.results.some((r) => r.status === 'failed')) return 1;
    return 0;
  } finally {
    offSignals();
    await scheduler?.close();
    await cli.close();
  }
}

/** Registers `stepwise eval`. */
export function registerEval(program: Command): void {
  program
    .command('eval')
    .description('Run a thread over a dataset: every case × variant in its own runner process, assertions checked. Exit 0 all passed, 1 an assertion failed, 2 bad input, 3 a case could not run or an assertion could not be checked, 130 cancelled (Ctrl-C; --resume runs the rest).')
    .argument('[thread]', 'thread file (.json)')
    .option('--dataset <file>', 'cases: .dataset.json, .jsonl or .csv, or a promptfoo tests file (.yaml, .yml, .json; JSONL and CSV in promptfoo\'s form too)')
    .option('--variant <spec>', 'a variant, e.g. "name=mini model=openai/gpt-4o-mini temperature=0.2" (repeatable)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    // No commander default: a resumed batch must tell "not given" (keep its own) from a given value.
    .option('--concurrency <n>', `cases at a time (default ${DEFAULT_CONCURRENCY}; with --resume, the batch's own unless given)`)
    .option('--max-turns <n>', 'ReAct turn cap per case')
    .option('--assertions <file or JSON>', 'a JSON array of assertions for every case (added to the dataset\'s), in a file or given inline (repeatable: each list is added)', (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option('--junit <file>', 'write JUnit XML')
    .option('--json <file>', 'write the results as JSON')
    .option('--isolation <mode>', 'runner processes: reuse (default; one per concurrent case, reused; a case whose process crashes runs again in a fresh one) or fresh (a new process per case)')
    .option('--queue <url>', 'run cases on workers through Redis (redis://HOST:PORT); start them with `stepwise worker`')
    .option('--resume <dir>', 'resume an interrupted batch from its folder (runs only the cases it does not have)')
    .option('--out <dir>', 'where batch folders go (default: the workspace\'s evals/<dataset>/)')
    .option('--name <name>', 'the batch\'s name (default: the dataset\'s)')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .action(async (file: string | undefined, opts: EvalOptions) => {
      process.exitCode = await evalCommand(file, opts);
    });
}
