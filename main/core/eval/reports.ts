/**
 * A batch's results as files CI reads: JUnit XML (one testsuite per variant, one testcase per
 * case; a failed assertion is a <failure>, a case that could not run an <error>) in the shape
 * Jenkins, GitLab and GitHub's test reporters accept, and JSON (summary plus every result).
 */
import type { CaseResult, VariantSummary } from '../../../shared/eval/results';

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text safe inside an XML attribute or element: escaped, and characters XML 1.0 forbids removed. */
function xml(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);
}

const seconds = (r: CaseResult) => ((r.endedAt - r.startedAt) / 1000).toFixed(3);

/**
 * The wall-clock time of `results` in seconds (3 decimals): from the first case's start to the
 * last one's end, without the stretches when none of them was running (a batch stopped and
 * resumed later). Cases that ran at the same time count once, unlike a sum of their times.
 */
export function wallClockSeconds(results: Pick<CaseResult, 'startedAt' | 'endedAt'>[]): string {
  const spans = results.map((r) => [r.startedAt, Math.max(r.startedAt, r.endedAt)] as const).sort((a, b) => a[0] - b[0]);
  let ms = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (s > end) {
      if (end > start) ms += end - start;
      [start, end] = [s, e];
    } else end = Math.max(end, e);
  }
  if (end > start) ms += end - start;
  return (ms / 1000).toFixed(3);
}

/**
 * JUnit XML of a batch named `name`, one suite per variant (in `variants` order). Times are
 * seconds: a testcase's is its own run (endedAt - startedAt); a testsuite's and the
 * testsuites' are wall-clock ({@link wallClockSeconds}), so cases run concurrently count once.
 */
export function junitXml(name: string, results: CaseResult[], variants: string[]): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const failures = results.filter((r) => r.status === 'failed').length;
  const errors = results.filter((r) => r.status === 'error').length;
  lines.push(`<testsuites name="${xml(name)}" tests="${results.length}" failures="${failures}" errors="${errors}" time="${wallClockSeconds(results)}">`);
  for (const v of variants) {
    const rs = results.filter((r) => r.variant === v);
    const time = wallClockSeconds(rs);
    lines.push(
      `  <testsuite name="${xml(v)}" tests="${rs.length}" failures="${rs.filter((r) => r.status === 'failed').length}" errors="${rs.filter((r) => r.status === 'error').length}" time="${time}">`,
    );
    for (const r of rs) {
      lines.push(`    <testcase classname="${xml(`${name}.${v}`)}" name="${xml(r.caseId)}" time="${seconds(r)}">`);
      const bad = r.assertions.filter((a) => a.status !== 'pass');
      if (r.status === 'error') {
        const why = r.error ?? bad.find((a) => a.status === 'error')?.reason ?? 'the case could not run';
        lines.push(`      <error message="${xml(why.split('\n')[0])}">${xml(why)}</error>`);
      } else if (r.status === 'failed') {
        const text = bad.map((a) => `${a.type}: ${a.reason}`).join('\n');
        lines.push(`      <failure message="${xml(`${bad.length} assertion${bad.length === 1 ? '' : 's'} failed`)}">${xml(text)}</failure>`);
      }
      if (r.outcome) lines.push(`      <system-out>${xml(r.outcome.finalText)}</system-out>`);
      lines.push('    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** The JSON report: the batch, its summaries and every result. */
export function jsonReport(batch: { id: string; name: string; dir: string }, summaries: VariantSummary[], results: CaseResult[]): string {
  return `${JSON.stringify({ batch, summaries, results }, null, 2)}\n`;
}
