/**
 * `stepwise eval` as a real process through bin/stepwise.mjs, for the integration tests of
 * tests/integration/eval/: the command, a one-step scripted thread, and its input files.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** What a finished `stepwise eval` printed and how it exited. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `stepwise eval <args> --home <home>`; `onLine` sees each stdout line as it comes, with
 * the wrapper's pid (its child is the CLI process).
 */
export function evalCli(home: string, args: string[], onLine?: (line: string, pid: number) => void): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), 'eval', ...args, '--home', home], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => {
      stdout += d;
      for (const l of String(d).split('\n')) if (l) onLine?.(l, p.pid!);
    });
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A scripted thread that answers `answer` in one step, at `tokensPerSecond`. */
export function evalThread(answer = 'The answer is 4.', tokensPerSecond = 100000) {
  return {
    version: 1,
    id: '6a0e4f5e-5d7a-4a53-9a8e-3c1f6f1b0e01',
    title: 'Arithmetic',
    model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond }, script: [{ text: answer }] },
    context: { systemPrompt: 'Answer {{question}}', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'What is 2+2?' }] }] },
    runRefs: [],
  };
}

/** Writes thread `t`, the JSONL `cases` and a `contains "4"` assertions file into `dir`; returns their paths. */
export async function evalFiles(dir: (...parts: string[]) => string, t: object = evalThread(), cases = '{"id":"q1","question":"2+2"}\n{"id":"q2","question":"two plus two"}\n') {
  await writeFile(dir('t.json'), JSON.stringify(t));
  await writeFile(dir('d.jsonl'), cases);
  await writeFile(dir('contains4.json'), JSON.stringify([{ type: 'contains', value: '4' }]));
  return { t: dir('t.json'), d: dir('d.jsonl'), a: dir('contains4.json') };
}
