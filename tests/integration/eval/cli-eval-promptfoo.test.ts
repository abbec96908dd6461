/**
 * `stepwise eval --dataset` on promptfoo's tests files (docs/architecture.md#evaluation), as a
 * real process on the offline scripted model: a YAML tests file's assertions are applied case by
 * case; assertion types Stepwise lacks are named in one error (exit 2) before anything runs; one
 * malformed test among 50,000 is named and no case runs; a dataset whose cases all fail still
 * writes every result.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from '../../support/temp-folder';
import { evalCli, evalThread } from '../../support/eval-cli';
import { readResults } from '../../../main/core/eval/batch-files';

const dir = tempFolder('stepwise-eval-pf-', 'test');
const run = (args: string[]) => evalCli(dir('home'), args);

describe('stepwise eval on promptfoo tests files', () => {
  it('a YAML tests file: each test\'s assert entries decide its case (not read as a variable named assert)', async () => {
    await writeFile(dir('t.json'), JSON.stringify(evalThread('The answer is 4.')));
    await writeFile(
      dir('tests.yaml'),
      [
        '- description: four',
        '  vars: {question: "2+2"}',
        '  assert:',
        '    - type: icontains',
        '      value: "ANSWER IS 4"',
        '- description: five',
        '  vars: {question: "2+3"}',
        '  assert:',
        '    - type: contains-any',
        '      value: ["5", five]',
        '',
      ].join('\n'),
    );
    const r = await run([dir('t.json'), '--dataset', dir('tests.yaml'), '--json', dir('r.json')]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^PASS four \[base\]/m);
    expect(r.stdout).toMatch(/^FAIL five \[base\] .*regex/m);
    const results = JSON.parse(await readFile(dir('r.json'), 'utf8')).results as { caseId: string; assertions: { type: string }[] }[];
    expect(results.map((x) => [x.caseId, x.assertions.map((a) => a.type)])).toEqual([['four', ['contains']], ['five', ['regex']]]);
  }, 120_000);

  it('assertion types Stepwise lacks: one error listing them, exit 2, nothing run', async () => {
    await writeFile(dir('t.json'), JSON.stringify(evalThread()));
    await writeFile(dir('u.yaml'), '- vars: {q: a}\n  assert:\n    - type: javascript\n      value: output.length > 1\n- vars: {q: b}\n  assert:\n    - type: similar\n      value: b\n');
    const r = await run([dir('t.json'), '--dataset', dir('u.yaml'), '--out', dir('evals')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`stepwise eval: ${dir('u.yaml')}: promptfoo assertion types Stepwise does not check: javascript (test 1 (line 1) assert 1); similar (test 2 (line 5) assert 1). Stepwise checks equals, contains,`);
    expect(existsSync(dir('evals'))).toBe(false);
  }, 120_000);

  it('one malformed test among 50,000 is named and no case runs', async () => {
    await writeFile(dir('t.json'), JSON.stringify(evalThread()));
    const lines: string[] = [];
    for (let i = 0; i < 50_000; i++) lines.push(`- vars: {i: "${i}"}`, `  assert: [{type: contains, value: "4"}]`);
    lines[2 * 41_999 + 1] = '  assert: [{type: contains, value: "4", weight: 0}]';
    await writeFile(dir('big.yaml'), `${lines.join('\n')}\n`);
    const r = await run([dir('t.json'), '--dataset', dir('big.yaml'), '--out', dir('evals')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`stepwise eval: ${dir('big.yaml')}: test 42000 (line 83999): assert 1: "weight" 0: Stepwise reads a positive weight only (promptfoo passes a weight-0 assertion whatever the output)`);
    expect(existsSync(dir('evals'))).toBe(false);
  }, 180_000);

  it('a dataset whose cases all fail still writes every result', async () => {
    await writeFile(dir('t.json'), JSON.stringify(evalThread('The answer is 4.')));
    await writeFile(dir('all-fail.json'), JSON.stringify(Array.from({ length: 40 }, (_, i) => ({ vars: { question: String(i) }, assert: [{ type: 'equals', value: 'five' }] }))));
    const r = await run([dir('t.json'), '--dataset', dir('all-fail.json'), '--out', dir('evals')]);
    expect(r.code, r.stderr).toBe(1);
    const batchDir = /^results: (.+)$/m.exec(r.stdout)![1]!;
    const { results } = await readResults(batchDir);
    expect(results).toHaveLength(40);
    expect(results.every((x) => x.status === 'failed')).toBe(true);
    expect(path.dirname(batchDir)).toBe(dir('evals'));
  }, 180_000);
});
