/**
 * What `stepwise eval` (a real process through bin/stepwise.mjs, on the offline scripted model)
 * says about its input before and while running: `--assertions` that is not JSON (named by file,
 * line and column), an empty `--assertions` list (a warning; the exit code is the batch's),
 * and `--resume` of a folder that is not there (one line, exit 2).
 */
import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { tempFolder } from '../../support/temp-folder';
import { evalCli as runEval, evalFiles, evalThread, type Ran } from '../../support/eval-cli';

const dir = tempFolder('stepwise-eval-input-', 'test');
const evalCli = (args: string[]): Promise<Ran> => runEval(dir('home'), args);

describe('stepwise eval input', () => {
  it('--assertions that is not JSON exits 2 naming the file, line and column (or --assertions when inline)', async () => {
    const f = await evalFiles(dir);
    const file = dir('assertions.json');
    await writeFile(file, '[\n  {"type": "contains",\n   "value": 4x}\n]\n');
    const r = await evalCli([f.t, '--dataset', f.d, '--assertions', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`stepwise eval: ${file} line 3, column 14: unexpected 'x'\n`);
    expect(r.stdout).toBe('');
    const inline = await evalCli([f.t, '--dataset', f.d, '--assertions', '[{"type":"contains",\n"value"}]']);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toBe(`stepwise eval: --assertions line 2, column 8: expected ':' after the property name, found '}'\n`);
  }, 120_000);

  it('an empty --assertions list (a file or inline) warns that every case that runs without error passes; the exit code stays the batch’s', async () => {
    const f = await evalFiles(dir, evalThread('The answer is five.'));
    await writeFile(dir('empty.json'), '[]\n');
    const fromFile = await evalCli([f.t, '--dataset', f.d, '--assertions', dir('empty.json')]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stderr).toBe(`stepwise eval: ${dir('empty.json')} is an empty list and the dataset has no assertions: no assertions were given, so every case that runs without error passes\n`);
    expect(fromFile.stdout).toMatch(/^base: 2\/2 passed/m);
    // A case's own assertion still fails it (exit 1); the empty list is said to add nothing.
    await writeFile(dir('own.jsonl'), '{"id":"q1","assertions":[{"type":"contains","value":"4"}]}\n');
    const inline = await evalCli([f.t, '--dataset', dir('own.jsonl'), '--assertions', '[]']);
    expect(inline.code).toBe(1);
    expect(inline.stderr).toBe("stepwise eval: --assertions is an empty list: it adds no assertions (only the dataset's own are checked)\n");
  }, 120_000);

  it('--resume of a folder that does not exist is one line naming it, exit 2', async () => {
    const r = await evalCli(['--resume', dir('no-such-batch')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`stepwise eval: --resume ${dir('no-such-batch')}: no such folder; give the folder a batch printed after "results:"\n`);
    expect(r.stdout).toBe('');
  }, 60_000);
});
