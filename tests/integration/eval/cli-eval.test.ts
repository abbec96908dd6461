/**
 * `stepwise eval` as a real process through bin/stepwise.mjs, on the offline scripted model:
 * exit codes (0 all passed, 1 an assertion failed, 2 bad input, 3 a case could not run), JUnit
 * and JSON output, resuming an interrupted batch without re-running its finished cases, a judge
 * that reads the case output as it is, and what the command checks before running. How cases
 * get their runner processes (reused, fresh, killed): cli-eval-isolation.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { storedCase } from '../../../main/core/eval/case-store';
import { evalCli as runEval, evalFiles, evalThread, type Ran } from '../../support/eval-cli';

const ROOT = path.resolve(__dirname, '../../..');
const dir = tempFolder('stepwise-eval-', 'test');
const evalCli = (args: string[], onLine?: (line: string, pid: number) => void): Promise<Ran> => runEval(dir('home'), args, onLine);
const thread = evalThread;
const files = (t: object = thread(), cases?: string) => evalFiles(dir, t, cases);

describe('stepwise eval', () => {
  it('exits 0 when every assertion passed, with a PASS line per case, a summary, JUnit and JSON', async () => {
    const f = await files();
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--junit', dir('j.xml'), '--json', dir('r.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^PASS q1 \[base\]/m);
    expect(r.stdout).toMatch(/^PASS q2 \[base\]/m);
    expect(r.stdout).toMatch(/^base: 2\/2 passed \(100%\) · 0 failed · 0 could not run · p50 /m);
    const junit = await readFile(dir('j.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="d" tests="2" failures="0" errors="0" time="\d+\.\d{3}">/);
    expect(junit).toContain('<testcase classname="d.base" name="q1"');
    const json = JSON.parse(await readFile(dir('r.json'), 'utf8'));
    expect(json.summaries[0]).toMatchObject({ variant: 'base', total: 2, passed: 2, passRate: 1 });
    expect(json.results.map((x: { outcome: { finalText: string } }) => x.outcome.finalText)).toEqual(['The answer is 4.', 'The answer is 4.']);
    // Each <testcase time> is that case's own duration in seconds (its result's endedAt - startedAt).
    const times = Object.fromEntries([...junit.matchAll(/<testcase [^>]*name="([^"]+)" time="([^"]+)"/g)].map((m) => [m[1], m[2]]));
    const own = Object.fromEntries(json.results.map((x: { caseId: string; startedAt: number; endedAt: number }) => [x.caseId, ((x.endedAt - x.startedAt) / 1000).toFixed(3)]));
    expect(times).toEqual(own);
    // Each case's run is a normal run: its thread (in the batch's case store until opened) holds the answer and the run's ref.
    const batchDir = /^results: (.+)$/m.exec(r.stdout)![1];
    const q1 = (await storedCase(path.join(batchDir, 'q1.json')))!.thread as unknown as { context: { variables: unknown; messages: { content: { text: string }[] }[] }; runRefs: unknown[] };
    expect(q1.context.variables).toEqual({ question: '2+2' });
    expect(q1.context.messages.at(-1)!.content[0]!.text).toBe('The answer is 4.');
    expect(q1.runRefs).toHaveLength(1);
  }, 120_000);

  it('a judge reads the case output, variables and expected value byte for byte, template syntax included', async () => {
    const answer = 'Write {{ user.name }} to print it; loop with {% for x in items %} and {% if x %}.';
    const f = await files(thread(answer), '{"id":"q1","question":"{{ q }} {% raw","expected":"{% endraw %}{{ user.name }}"}\n');
    const judge = { type: 'judge', rubric: 'Explains {{ Jinja }}', model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 100000 }, script: [{ text: '{"score": 5, "reason": "clear"}' }] } };
    await writeFile(dir('judge.json'), JSON.stringify([judge]));
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', dir('judge.json'), '--json', dir('rj.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(await readFile(dir('rj.json'), 'utf8'));
    expect(json.results[0].assertions).toEqual([{ type: 'judge', status: 'pass', score: 5, reason: '5/5: clear' }]);
    // The judge's run sent the text as built: the case's values and output unchanged.
    const batchDir = /^results: (.+)$/m.exec(r.stdout)![1];
    const judgeThread = JSON.parse(await readFile(path.join(batchDir, 'judges', 'q1.judge-1.json'), 'utf8'));
    const runs = path.join(dir('home'), 'runs', judgeThread.id);
    const [record] = await readdir(runs);
    const sent = JSON.parse(await readFile(path.join(runs, record), 'utf8')).records[0].request.messages[0].content[0].text as string;
    expect(sent).toBe(judgeThread.context.messages[0].content[0].text);
    expect(sent.endsWith(`OUTPUT:\n${answer}`)).toBe(true);
    expect(sent).toContain('"question": "{{ q }} {% raw"');
    expect(sent).toContain('EXPECTED:\n{% endraw %}{{ user.name }}');
  }, 120_000);

  it('exits 1 when an assertion failed, naming it, with a JUnit <failure>', async () => {
    const f = await files(thread('The answer is five.'));
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--junit', dir('j.xml'), '--variant', 'name=only temperature=0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAIL q1 \[only\] .*: contains: "4" not found in "The answer is five."$/m);
    expect(await readFile(dir('j.xml'), 'utf8')).toContain('<failure message="1 assertion failed">contains: &quot;4&quot; not found in &quot;The answer is five.&quot;</failure>');
  }, 120_000);

  it('exits 2 on bad input, naming the file and the line, before running anything', async () => {
    const f = await files(thread(), '{"id":"q1"}\n{"id": oops}\n');
    const r = await evalCli([f.t, '--dataset', f.d]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^stepwise eval: ${f.d.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: line 2: not JSON`, 'm'));
    expect(r.stdout).toBe('');
    const noDataset = await evalCli([f.t]);
    expect(noDataset.code).toBe(2);
    expect(noDataset.stderr).toContain('--dataset <file> is required');
    const good = await files();
    const badVariant = await evalCli([good.t, '--dataset', good.d, '--variant', 'scenario=loud']);
    expect(badVariant.code).toBe(2);
    expect(badVariant.stderr).toContain('variant "scenario=loud": the thread has no scenario "loud" (it has none)');
    const badConcurrency = await evalCli([good.t, '--dataset', good.d, '--concurrency', '0']);
    expect(badConcurrency.code).toBe(2);
    expect(badConcurrency.stderr).toContain('--concurrency must be a positive whole number, not "0"');
  }, 120_000);

  it('exits 3 when a case could not run; the other variant still ran and passed', async () => {
    const f = await files();
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--variant', 'name=ok', '--variant', 'name=broken model=nosuch/model']);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^PASS q1 \[ok\]/m);
    expect(r.stdout).toMatch(/^ERROR q1 \[broken\] .*: .*nosuch/m);
    expect(r.stdout).toMatch(/^broken: 0\/2 passed \(0%\) · 0 failed · 2 could not run/m);
  }, 120_000);

  it('--resume runs only the cases the batch does not have yet', async () => {
    const f = await files(thread(), '{"id":"q1"}\n{"id":"q2"}\n{"id":"q3"}\n');
    const first = await evalCli([f.t, '--dataset', f.d, '--out', dir('batches')]);
    expect(first.code).toBe(0);
    const [batch] = await readdir(dir('batches'));
    const results = path.join(dir('batches'), batch, 'results.jsonl');
    const lines = (await readFile(results, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(3);
    // As if the batch had stopped after its first case, mid-way through writing the second.
    await writeFile(results, `${lines[0]}\n${lines[1].slice(0, 20)}`);
    const again = await evalCli(['--resume', path.join(dir('batches'), batch)]);
    expect(again.code).toBe(0);
    const ranAgain = again.stdout.split('\n').filter((l) => l.startsWith('PASS '));
    const kept = JSON.parse(lines[0]).caseId as string;
    expect(ranAgain.map((l) => l.split(' ')[1]).sort()).toEqual(['q1', 'q2', 'q3'].filter((c) => c !== kept));
    expect(again.stderr).toContain(`${results}: line 2 could not be read and was skipped; a case with no readable result ran again`);
    expect(again.stdout).toMatch(/^base: 3\/3 passed/m);
    // Not given, the saved concurrency (the default 4) is used.
    expect(again.stdout).toMatch(/^batch .*: 3 cases × 1 variant, concurrency 4, on local \(runner processes reused across cases\)$/m);
    // The cut-off line was ended before the new results: each is a line of its own, so a second
    // resume finds every case done and runs none.
    const after = (await readFile(results, 'utf8')).split('\n').filter(Boolean);
    expect(after.filter((l) => { try { JSON.parse(l); return true; } catch { return false; } })).toHaveLength(3);
    const third = await evalCli(['--resume', path.join(dir('batches'), batch)]);
    expect(third.code).toBe(0);
    expect(third.stdout.split('\n').filter((l) => l.startsWith('PASS '))).toEqual([]);
  }, 120_000);

  it('--resume with --concurrency runs at the given concurrency and records it in the batch file', async () => {
    const f = await files(thread(), '{"id":"q1"}\n{"id":"q2"}\n');
    const first = await evalCli([f.t, '--dataset', f.d, '--out', dir('batches-c'), '--concurrency', '3']);
    expect(first.code).toBe(0);
    const [batch] = await readdir(dir('batches-c'));
    const folder = path.join(dir('batches-c'), batch);
    const saved = async () => JSON.parse(await readFile(path.join(folder, '.batch.json'), 'utf8')).concurrency as number;
    expect(await saved()).toBe(3);
    const results = path.join(folder, 'results.jsonl');
    await writeFile(results, `${(await readFile(results, 'utf8')).split('\n')[0]}\n`);
    const again = await evalCli(['--resume', folder, '--concurrency', '1']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^batch .*: 2 cases × 1 variant, concurrency 1, on local \(runner processes reused across cases\)$/m);
    expect(await saved()).toBe(1);
    const bad = await evalCli(['--resume', folder, '--concurrency', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--concurrency must be a positive whole number, not "many"');
    expect(await saved()).toBe(1);
  }, 120_000);
  it('prints control characters from the dataset as visible escapes: a case id cannot rewrite its line', async () => {
    const id = 'c1 [base] 5 ms\r\u001b[2KPASS c1';
    const f = await files(thread(), `${JSON.stringify({ id })}\n`);
    const r = await evalCli([f.t, '--dataset', f.d, '--variant', 'name=v\u009b2J model=nosuch/model']);
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('ERROR c1 [base] 5 ms\\r\\u001b[2KPASS c1 [v\\u009b2J] ');
    expect(r.stdout).toMatch(/^v\\u009b2J: 0\/1 passed/m);
    // eslint-disable-next-line no-control-regex
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    // A malformed line's bytes are quoted escaped in the "not JSON" message.
    await writeFile(dir('esc.jsonl'), '{"id":"q1"}\n\u001b[31m{oops\u0007\n');
    const bad = await evalCli([f.t, '--dataset', dir('esc.jsonl')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 2: not JSON/);
    expect(bad.stderr).toContain('\\u001b');
    // eslint-disable-next-line no-control-regex
    expect(bad.stderr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  }, 120_000);

  it('exits 2 on a bad variant before running anything, naming the variant and the key', async () => {
    const f = await files();
    const cases: [string, RegExp][] = [
      ['temperature=abc', /--variant 1 \("temperature=abc"\): temperature=abc: /],
      ['foo=bar', /--variant 1 \("foo=bar"\): "foo" is not a variant key \(known: name, model, scenario, prompt, temperature, /],
      ['temprature=0.2', /"temprature" is not a variant key \(known: .*temperature/],
      ['model=a/x model=a/y', /"model" is given twice/],
      ['name= temperature=1', /name= is empty/],
    ];
    for (const [variant, message] of cases) {
      const r = await evalCli([f.t, '--dataset', f.d, '--variant', variant, '--out', dir('never')]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    await expect(readdir(dir('never'))).rejects.toThrow();
  }, 120_000);

  it('checks --junit and --json paths before running; a report that fails to write at the end keeps the other and the exit code', async () => {
    const f = await files();
    const missing = path.join(dir('no-such-folder'), 'j.xml');
    const r = await evalCli([f.t, '--dataset', f.d, '--junit', missing, '--json', dir('ok.json'), '--out', dir('never2')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`stepwise eval: --junit ${missing}: its folder does not exist\n`);
    expect(r.stdout).toBe('');
    await expect(readdir(dir('never2'))).rejects.toThrow();
    // The JUnit path becomes a folder once the batch is under way: JSON is still written, the exit code is the batch's (1).
    const late = dir('late.xml');
    const slow = await files(thread(`${'slow words '.repeat(20)}five`, 200));
    const done = await evalCli([slow.t, '--dataset', slow.d, '--assertions', slow.a, '--junit', late, '--json', dir('late.json')], (line) => {
      if (line.startsWith('batch ')) mkdirSync(late, { recursive: true });
    });
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(new RegExp(`^stepwise eval: --junit ${late.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: could not write \\(EISDIR\\)$`, 'm'));
    expect(JSON.parse(await readFile(dir('late.json'), 'utf8')).summaries[0]).toMatchObject({ total: 2, failed: 2 });
  }, 120_000);

  it('after Ctrl-C the summary says how many cases were not run', async () => {
    const f = await files(thread(`${'slow words '.repeat(20)}4`, 200), Array.from({ length: 8 }, (_, i) => `{"id":"c${i}"}\n`).join(''));
    const p = spawn(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), 'eval', f.t, '--dataset', f.d, '--concurrency', '1', '--home', dir('home')], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let sent = false;
    p.stdout.on('data', (d: Buffer) => {
      stdout += d;
      if (!sent && /^PASS c0 /m.test(stdout)) {
        sent = true;
        process.kill(-p.pid!, 'SIGINT'); // Ctrl-C reaches the whole foreground process group
      }
    });
    const code = await new Promise<number | null>((res) => p.on('close', res));
    expect(code).toBe(130);
    const ran = stdout.split('\n').filter((l) => /^(PASS|FAIL|ERROR) /.test(l)).length;
    expect(ran).toBeLessThan(8);
    expect(stdout).toContain(`cancelled: ${8 - ran} not run; --resume runs them\n`);
  }, 120_000);

  it('--resume refuses the options it would ignore, naming them; --isolation and --concurrency are allowed', async () => {
    const f = await files(thread(), '{"id":"q1"}\n');
    const first = await evalCli([f.t, '--dataset', f.d, '--out', dir('batches-r')]);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^batch .*: 1 case × 1 variant,/m);
    const folder = path.join(dir('batches-r'), (await readdir(dir('batches-r')))[0]);
    const r = await evalCli([f.t, '--resume', folder, '--dataset', f.d, '--variant', 'temperature=1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('stepwise eval: --resume runs the batch as it was first asked; it would ignore the thread argument, --dataset, --variant (leave them out)\n');
    const ok = await evalCli(['--resume', folder, '--isolation', 'fresh', '--concurrency', '2']);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  }, 120_000);

  it('warns once when cases have an expected value no assertion compares with; pass/fail unchanged', async () => {
    const f = await files(thread(), '{"id":"w1","expected":"totally wrong"}\n{"id":"w2","expected":"also wrong"}\n{"id":"w3"}\n');
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('stepwise eval: 2 cases have an expected value but no assertion compares with it (add {"type":"equals"} or {"type":"contains"} without a value)\n');
    await writeFile(dir('eq.json'), JSON.stringify([{ type: 'contains', value: '' }]));
    const checked = await evalCli([f.t, '--dataset', f.d, '--assertions', dir('eq.json')]);
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(1);
    // --assertions is repeatable: every list is checked, in the order given.
    const both = await evalCli([f.t, '--dataset', f.d, '--assertions', f.a, '--assertions', '[{"type":"equals"}]', '--json', dir('both.json')]);
    // w3 has no expected value: its `equals` without a value cannot check anything (exit 3).
    expect(both.code).toBe(3);
    // An `equals` without a value compares with `expected`: no warning that nothing does.
    expect(both.stderr).not.toContain('no assertion compares');
    const json = JSON.parse(await readFile(dir('both.json'), 'utf8'));
    const statuses = (i: number) => json.results[i].assertions.map((a: { type: string; status: string }) => `${a.type} ${a.status}`);
    expect([statuses(0), statuses(2)]).toEqual([['contains pass', 'equals fail'], ['contains pass', 'equals error']]);
  }, 120_000);

  it('reports list results in dataset order (case × variant), and --help names exit 130', async () => {
    const slowFirst = thread(`${'slow words '.repeat(30)}4`, 40);
    const f = await files(slowFirst, '{"id":"a"}\n{"id":"b"}\n');
    const r = await evalCli([f.t, '--dataset', f.d, '--json', dir('order.json'), '--junit', dir('order.xml'), '--concurrency', '4', '--variant', 'name=slow', '--variant', 'name=fast tokensPerSecond=100000']);
    expect(r.code).toBe(0);
    // The fast variant finishes first, yet the reports keep the dataset's order.
    expect(r.stdout.split('\n').filter((l) => l.startsWith('PASS')).map((l) => l.split(' ').slice(1, 3).join(' '))[0]).toMatch(/\[fast\]/);
    const json = JSON.parse(await readFile(dir('order.json'), 'utf8'));
    expect(json.results.map((x: { caseId: string; variant: string }) => `${x.caseId}/${x.variant}`)).toEqual(['a/slow', 'a/fast', 'b/slow', 'b/fast']);
    const junit = await readFile(dir('order.xml'), 'utf8');
    expect([...junit.matchAll(/<testcase classname="d\.(\w+)" name="(\w+)"/g)].map((m) => `${m[2]}/${m[1]}`)).toEqual(['a/slow', 'b/slow', 'a/fast', 'b/fast']);
    const help = execFileSync(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), 'eval', '--help'], { cwd: ROOT, encoding: 'utf8' });
    expect(help).toContain('130 cancelled');
  }, 120_000);
});
