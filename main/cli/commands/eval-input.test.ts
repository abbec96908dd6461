import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdir, writeFile } from 'node:fs/promises';
import { tempFolder } from '../../../tests/support/temp-folder';
import { emptyDataset, type Dataset } from '../../../shared/eval/dataset';
import { emptyAssertionsWarning, readAssertionsArg, readDatasetFile, resumeFolderProblem } from './eval-input';

const dir = tempFolder('stepwise-eval-input-', 'file');

/** The message `readAssertionsArg(arg)` throws. */
async function problem(arg: string): Promise<string> {
  const e = await readAssertionsArg(arg).then(
    () => undefined,
    (err: Error) => err,
  );
  if (!e) throw new Error(`${arg}: read without a problem`);
  return e.message;
}

describe('--assertions', () => {
  it('a JSON syntax error names the file, the line and the column', async () => {
    const file = dir('assertions.json');
    await writeFile(file, '[\n  {"type": "contains",\n   "value": 4x}\n]\n');
    expect(await problem(file)).toBe(`${file} line 3, column 14: unexpected 'x'`);
    await writeFile(file, '[{"type": "contains", "value": "4"}');
    expect(await problem(file)).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} line 1, column \\d+: the text ends early`));
  });

  it('reads a JSON array given inline; its errors name --assertions and the place', async () => {
    expect(await readAssertionsArg('[{"type":"contains","value":"4"}]')).toEqual({ assertions: [{ type: 'contains', value: '4' }], label: '--assertions' });
    expect(await readAssertionsArg(' []')).toEqual({ assertions: [], label: '--assertions' });
    expect(await problem('[{"type":"contains" "value":"4"}]')).toBe(`--assertions line 1, column 21: expected ',' or '}' after a property value, found '"'`);
    expect(await problem('[{"type":"nope"}]')).toMatch(/^--assertions:\/0/);
    // JSON that is not an array is named as such, not taken for a missing file.
    expect(await problem('null')).toMatch(/^--assertions: .*array/i);
    expect(await problem('"contains"')).toMatch(/^--assertions: .*array/i);
    expect(await problem(dir('missing.json'))).toBe(`--assertions ${dir('missing.json')}: no such file; give a file holding a JSON array of assertions, or the array itself`);
  });

  it('any text that is not JSON is refused with a 1-based line and column inside the text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (tail) => {
        const text = `[\n${tail}`;
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        if (parses) return;
        const m = /^--assertions line (\d+), column (\d+): /.exec(await problem(text));
        expect(m).not.toBeNull();
        const [line, column] = [Number(m![1]), Number(m![2])];
        const lines = text.split('\n');
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(lines.length);
        expect(column).toBeGreaterThanOrEqual(1);
        expect(column).toBeLessThanOrEqual(lines[line - 1]!.length + 1);
      }),
    );
  });

  it('an empty list is a warning that every case that runs without error passes, unless the dataset has assertions', () => {
    const plain: Dataset = { ...emptyDataset('d'), cases: [{ id: 'a', vars: {} }] };
    const empty = { assertions: [], label: 'a.json' };
    expect(emptyAssertionsWarning(empty, plain)).toBe('a.json is an empty list and the dataset has no assertions: no assertions were given, so every case that runs without error passes');
    const own: Dataset = { ...plain, cases: [{ id: 'a', vars: {}, assertions: [{ type: 'contains', value: 'x' }] }] };
    expect(emptyAssertionsWarning(empty, own)).toBe("a.json is an empty list: it adds no assertions (only the dataset's own are checked)");
    expect(emptyAssertionsWarning(empty, plain, true)).toBe('a.json is an empty list: it adds no assertions (the other --assertions lists are checked)');
    expect(emptyAssertionsWarning({ assertions: [{ type: 'contains', value: 'x' }], label: 'a.json' }, plain)).toBeUndefined();
  });
});

describe('--resume', () => {
  it('names a folder that does not exist, is a file, or holds no batch file', async () => {
    const hint = 'give the folder a batch printed after "results:"';
    expect(await resumeFolderProblem(dir('nowhere'))).toBe(`--resume ${dir('nowhere')}: no such folder; ${hint}`);
    await writeFile(dir('file'), 'x');
    expect(await resumeFolderProblem(dir('file'))).toBe(`--resume ${dir('file')}: not a folder; ${hint}`);
    await mkdir(dir('empty'));
    expect(await resumeFolderProblem(dir('empty'))).toBe(`--resume ${dir('empty')}: not a batch folder (it has no .batch.json); ${hint}`);
    await writeFile(dir('empty', '.batch.json'), '{}');
    expect(await resumeFolderProblem(dir('empty'))).toBeUndefined();
  });
});

describe('the dataset file', () => {
  it('names a file that does not exist or is a folder in words, not an error code', async () => {
    const message = (file: string) => readDatasetFile(file).then(() => 'read', (err: Error) => err.message);
    expect(await message(dir('missing.csv'))).toBe(`${dir('missing.csv')}: cannot read the dataset: no such file`);
    await mkdir(dir('folder.jsonl'));
    expect(await message(dir('folder.jsonl'))).toBe(`${dir('folder.jsonl')}: cannot read the dataset: it is a folder, not a file`);
  });
});
