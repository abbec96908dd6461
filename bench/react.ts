/**
 * Benchmark `react`: a long ReAct run and short replies, issue #15 (items 3, 5 and 6).
 *
 * 1. Run journal: bytes the host writes per turn of a BENCH_REACT_TURNS-turn ReAct run (default
 *    1,000) over its first and last tenth of turns, at least 20 (react-journal.ts). Target: constant in the number of
 *    turns (the last window's bytes per turn ≤ 1.5 × the first's). Baseline: the whole run
 *    record rewritten every 250 ms (the journal before #15). Also the bytes of the runner's
 *    `llm_record`s at the last 20 calls, against the same records with their requests whole.
 * 2. Tool log: bytes per log line at lines 1–20 and 481–500 of one tool's log (react-journal.ts).
 *    Baseline: the whole log resent with every line.
 * 3. Short replies: CPU per 250-token text-only reply, runner, host and client
 *    (react-reply.ts; BENCH_REACT_REPLIES counted replies, default 12). Baseline: the runner
 *    loading its packages from node_modules, as built before #15.
 * 4. The app: the same ReAct run with the thread open in the built app in Chromium
 *    (react-ui.ts; BENCH_REACT_UI_TURNS, default BENCH_REACT_TURNS). Targets: no long task over
 *    50 ms, the task taking the result ≤ 50 ms of CPU (traced), renderer JS heap under 300 MB,
 *    host RSS under 300 MB. No baseline: today's path is
 *    the one measured.
 *
 * BENCH_REACT_RATE sets the scripted model's tokens per second (default 100: a turn spans
 * about 50 ms, so a 20-turn window spans several 250 ms checkpoints).
 */
import { envNum, fmt, maxOf, type Figure } from './lib';
import { bytesPerTurn, journalRun, toolLogBytes } from './react-journal';
import { externalPackagesRunner, replyCost, shippedRunner } from './react-reply';
import { uiRun } from './react-ui';

const B = 'react';
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;

async function journalFigures(report: (f: Figure) => void, turns: number, rate: number): Promise<void> {
  const runner = shippedRunner();
  const append = await journalRun('append', turns, runner, rate);
  const whole = await journalRun('whole', turns, runner, rate);
  for (const r of [append, whole]) if (r.at.length < turns) throw new Error(`the ReAct run ended after ${r.at.length} of ${turns} turns`);
  // The journal writes a checkpoint every 250 ms, a few turns apart, so a window of 20 turns
  // holds 4 to 6 of them and its bytes per turn moved ±20 % from window to window with no trend;
  // a tenth of the run (100 turns, about 25 checkpoints) averages that out.
  const span = Math.min(turns - 1, Math.max(20, Math.round(turns / 10)));
  const first = (r: typeof append) => bytesPerTurn(r, 1, 1 + span);
  const last = (r: typeof append) => bytesPerTurn(r, turns - span, turns);
  const label = `${fmt(turns)}-turn ReAct run`;
  report({ bench: B, name: `${label}: bytes written/turn, turns 1–${1 + span}`, value: first(append), unit: 'B', baseline: { label: 'whole record/250 ms', value: first(whole) } });
  report({ bench: B, name: `${label}: bytes written/turn, turns ${turns - span}–${turns}`, value: last(append), unit: 'B', baseline: { label: 'whole record/250 ms', value: last(whole) }, ratio: last(whole) / last(append), ratioLabel: 'fewer' });
  const growth = last(append) / first(append);
  report({
    bench: B,
    name: `${label}: bytes/turn at the end ÷ at the start`,
    value: growth,
    unit: '×',
    baseline: { label: 'whole record/250 ms', value: last(whole) / first(whole) },
    target: { text: 'constant in turns: ≤ 1.5×', met: growth <= 1.5 },
  });
  report({ bench: B, name: `${label}: bytes written during the run`, value: append.at[turns - 1] - append.at[0], unit: 'B', baseline: { label: 'whole record/250 ms', value: whole.at[turns - 1] - whole.at[0] } });
  const lastRecords = (a: number[]) => mean(a.slice(-20));
  report({
    bench: B,
    name: `${label}: llm_record bytes posted by the runner, last 20 calls`,
    value: lastRecords(append.recordBytes),
    unit: 'B',
    baseline: { label: 'request whole', value: lastRecords(append.wholeRecordBytes) },
    ratio: lastRecords(append.wholeRecordBytes) / lastRecords(append.recordBytes),
    ratioLabel: 'fewer',
  });
  report({ bench: B, name: `${label}: duration`, value: append.seconds, unit: 's', baseline: { label: 'whole record/250 ms', value: whole.seconds } });
}

function toolLogFigures(report: (f: Figure) => void): void {
  const line = toolLogBytes('line', 500);
  const whole = toolLogBytes('whole', 500);
  const early = (a: number[]) => mean(a.slice(0, 20));
  const late = (a: number[]) => mean(a.slice(480, 500));
  report({ bench: B, name: 'tool log: bytes sent per line, lines 1–20', value: early(line), unit: 'B', baseline: { label: 'whole log/line', value: early(whole) } });
  report({ bench: B, name: 'tool log: bytes sent per line, lines 481–500', value: late(line), unit: 'B', baseline: { label: 'whole log/line', value: late(whole) }, ratio: late(whole) / late(line), ratioLabel: 'fewer' });
  report({
    bench: B,
    name: 'tool log: bytes/line at line 500 ÷ at line 10',
    value: late(line) / early(line),
    unit: '×',
    baseline: { label: 'whole log/line', value: late(whole) / early(whole) },
    target: { text: 'constant: ≤ 1.5×', met: late(line) / early(line) <= 1.5 },
  });
}

async function replyFigures(report: (f: Figure) => void, replies: number): Promise<void> {
  const before = await replyCost(externalPackagesRunner(), replies);
  const after = await replyCost(shippedRunner(), replies);
  const label = '250-token text reply';
  const base = (value: number) => ({ label: 'packages from node_modules', value });
  report({ bench: B, name: `${label}: runner CPU/reply (start-up included)`, value: after.runnerMs, unit: 'ms', baseline: base(before.runnerMs), ratio: before.runnerMs / after.runnerMs, ratioLabel: 'less' });
  report({ bench: B, name: `${label}: host CPU/reply`, value: after.hostMs, unit: 'ms', baseline: base(before.hostMs) });
  report({ bench: B, name: `${label}: client CPU/reply`, value: after.clientMs, unit: 'ms', baseline: base(before.clientMs) });
  const total = (c: typeof after) => c.runnerMs + c.hostMs + c.clientMs;
  report({ bench: B, name: `${label}: pipeline CPU/reply`, value: total(after), unit: 'ms', baseline: base(total(before)), ratio: total(before) / total(after), ratioLabel: 'less' });
  report({ bench: B, name: `${label}: frames pushed/reply`, value: after.frames, unit: '', baseline: base(before.frames) });
}

async function uiFigures(report: (f: Figure) => void, turns: number, rate: number): Promise<void> {
  const r = await uiRun(turns, rate);
  const label = `${fmt(turns)}-turn ReAct, thread open`;
  const longest = maxOf([...r.longTasks, ...r.resultLongTasks]);
  report({ bench: B, name: `${label}: run duration (until the run ended)`, value: r.seconds, unit: 's' });
  report({ bench: B, name: `${label}: long tasks while streaming`, value: r.longTasks.length, unit: `, longest ${fmt(maxOf(r.longTasks))} ms` });
  report({ bench: B, name: `${label}: long tasks taking the result (${fmt(turns)} messages)`, value: r.resultLongTasks.length, unit: `, longest ${fmt(maxOf(r.resultLongTasks))} ms` });
  report({ bench: B, name: `${label}: longest long task`, value: longest, unit: 'ms', target: { text: 'no long task over 50 ms', met: longest <= 50 } });
  report({
    bench: B,
    name: `${label}: longest task, CPU`,
    value: r.longestTaskCpuMs,
    unit: 'ms',
    note: 'main-thread CPU of the longest task (of those over 10 ms of wall time), streaming and result (trace tdur)',
    target: { text: 'under 50 ms of CPU', met: r.longestTaskCpuMs < 50 },
  });
  report({
    bench: B,
    name: `${label}: task taking the result, CPU`,
    value: r.resultTaskCpuMs,
    unit: Number.isNaN(r.resultTaskCpuMs) ? '(the result was not traced)' : 'ms',
    note: `main-thread CPU of the longest task from the result's arrival on (trace tdur, tasks over 10 ms of wall time): ${r.resultTasksCpuMs.map((c) => c.toFixed(1)).join(', ') || 'none'} ms`,
    target: { text: '≤ 50 ms of CPU', met: r.resultTaskCpuMs <= 50 },
  });
  report({ bench: B, name: `${label}: renderer JS heap, max`, value: r.maxHeapMb, unit: 'MB', target: { text: '< 300 MB', met: r.maxHeapMb < 300 }, note: 'sampled each second while the page answered' });
  report({ bench: B, name: `${label}: renderer JS heap after the run (collected)`, value: r.endHeapMb, unit: Number.isNaN(r.endHeapMb) ? '(the page did not answer)' : 'MB' });
  report({ bench: B, name: `${label}: host RSS, max`, value: r.maxHostRssMb, unit: 'MB', target: { text: '< 300 MB', met: r.maxHostRssMb < 300 } });
  report({ bench: B, name: `${label}: final message shown`, value: r.finalMessageShown ? 1 : 0, unit: r.finalMessageShown ? '(yes)' : '(NO)', target: { text: 'shown', met: r.finalMessageShown } });
}

/** Run the benchmark (sizes from BENCH_REACT_*; BENCH_REACT_PARTS=journal,log,reply,ui picks parts). */
export async function reactBench(report: (f: Figure) => void): Promise<void> {
  const turns = Math.round(envNum('BENCH_REACT_TURNS', 1000));
  const rate = envNum('BENCH_REACT_RATE', 100);
  const parts = new Set((process.env.BENCH_REACT_PARTS ?? 'journal,log,reply,ui').split(',').map((s) => s.trim()));
  if (turns < 40) throw new Error(`BENCH_REACT_TURNS=${turns}: the journal figures compare the first and last tenth of the turns (at least 20 each), so at least 40`);
  if (parts.has('log')) toolLogFigures(report);
  if (parts.has('journal')) await journalFigures(report, turns, rate);
  if (parts.has('reply')) await replyFigures(report, Math.round(envNum('BENCH_REACT_REPLIES', 12)));
  if (parts.has('ui')) await uiFigures(report, Math.round(envNum('BENCH_REACT_UI_TURNS', turns)), envNum('BENCH_REACT_UI_RATE', 400));
}
