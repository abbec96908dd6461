/**
 * What `stepwise eval` prints and writes: a line per finished case, the summary per variant, the
 * report files (`--junit`, `--json`) checked before the batch runs and written after it. Text
 * from the dataset and the variants is printed through terminal-text.ts, never raw.
 */
import path from 'node:path';
import { access, constants, stat, writeFile } from 'node:fs/promises';
import type { CaseResult, VariantSummary } from '../../../shared/eval/results';
import type { BatchSpec } from '../../core/eval/batch-files';
import { terminalField } from '../terminal-text';

/** A duration for people: `12 ms`, `3.4 s`, `2 min 5 s`. */
export const fmtMs = (ms: number): string => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`);

/** `1 case`, `2 cases`. */
export const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One finished case: `PASS|FAIL|ERROR <case> [<variant>] <time>[: why]`, on one line whatever the input holds. */
export function caseLine(r: CaseResult): string {
  const word = r.status === 'passed' ? 'PASS' : r.status === 'failed' ? 'FAIL' : 'ERROR';
  const why = r.status === 'passed' ? '' : `: ${r.error ?? r.assertions.filter((a) => a.status !== 'pass').map((a) => `${a.type}: ${a.reason}`).join('; ')}`;
  const ms = r.outcome?.latencyMs ?? r.endedAt - r.startedAt;
  return `${word} ${terminalField(r.caseId)} [${terminalField(r.variant)}] ${fmtMs(ms)}${terminalField(why)}\n`;
}

/** A variant's summary line. */
export function summaryLine(s: VariantSummary): string {
  const lat = s.p50Ms !== undefined ? ` · p50 ${fmtMs(s.p50Ms)} · p95 ${fmtMs(s.p95Ms!)}` : '';
  const cost = s.costUsd !== undefined ? ` · $${s.costUsd.toFixed(4)}` : '';
  const score = s.meanScore !== undefined ? ` · judge ${s.meanScore.toFixed(2)}/5` : '';
  return `${terminalField(s.variant)}: ${s.passed}/${s.total} passed (${Math.round(s.passRate * 100)}%) · ${s.failed} failed · ${s.error} could not run${lat} · ${s.tokens} tokens${cost}${score}\n`;
}

/** `results` in dataset order: case order, then variant order within a case (not the order they finished in). */
export function inDatasetOrder(results: CaseResult[], spec: Pick<BatchSpec, 'dataset' | 'variants'>): CaseResult[] {
  const caseAt = new Map(spec.dataset.cases.map((c, i) => [c.id, i]));
  const variantAt = new Map(spec.variants.map((v, i) => [v.name, i]));
  const at = (r: CaseResult) => (caseAt.get(r.caseId) ?? caseAt.size) * (variantAt.size + 1) + (variantAt.get(r.variant) ?? variantAt.size);
  return [...results].sort((a, b) => at(a) - at(b));
}

/** A report file to write: the flag that asked for it and its path as given. */
export interface ReportTarget {
  flag: '--junit' | '--json';
  file: string;
}

/**
 * Whether each report can be written where asked, before the batch runs: its folder exists, is
 * a folder and is writable, and the path is not a folder. Returns the problems, each naming the flag and path.
 */
export async function reportPathProblems(targets: ReportTarget[]): Promise<string[]> {
  const out: string[] = [];
  for (const { flag, file } of targets) {
    const folder = path.dirname(path.resolve(file));
    const folderStat = await stat(folder).catch(() => undefined);
    if (!folderStat) {
      out.push(`${flag} ${file}: its folder does not exist`);
      continue;
    }
    if (!folderStat.isDirectory()) {
      out.push(`${flag} ${file}: ${path.dirname(file)} is not a folder`);
      continue;
    }
    if (!(await access(folder, constants.W_OK).then(() => true, () => false))) {
      out.push(`${flag} ${file}: its folder is not writable`);
      continue;
    }
    if ((await stat(file).catch(() => undefined))?.isDirectory()) out.push(`${flag} ${file}: is a folder, not a file`);
  }
  return out;
}

/** Writes every report it can; returns one problem per report that could not be written (the others are still written). */
export async function writeReports(reports: { target: ReportTarget; text: () => string }[]): Promise<string[]> {
  const out: string[] = [];
  for (const { target, text } of reports) {
    try {
      await writeFile(target.file, text());
    } catch (err) {
      out.push(`${target.flag} ${target.file}: could not write (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
  }
  return out;
}

/**
 * The warning for result lines of an earlier run that could not be read: the file and up to
 * five 1-based line numbers. Those lines stay in the file (nothing is deleted), so every later
 * resume names them again; a case with no readable result has run again.
 */
export function skippedLinesWarning(file: string, lines: number[]): string {
  const shown = lines.slice(0, 5).join(', ') + (lines.length > 5 ? ` and ${lines.length - 5} more` : '');
  return `stepwise eval: ${terminalField(file)}: ${lines.length === 1 ? 'line' : 'lines'} ${shown} could not be read and ${lines.length === 1 ? 'was' : 'were'} skipped; a case with no readable result ran again`;
}
