#!/usr/bin/env node
/**
 * Makes the example evaluation batch the Evaluate view opens on (docs/architecture.md#the-example-batch):
 * runs `stepwise eval` — the real CLI, runner processes and the offline scripted model — on the
 * example thread "Capital cities quiz" over resources/examples/evals/capitals.dataset.json
 * in a scratch home, then copies what it wrote into resources/examples: the batch folder
 * (evals/capitals/<batch>/: .batch.json, results.jsonl, each case's thread) and each case's run
 * record (.runs/<case thread id>/<run id>.json, which a new home gets in its runs/). The batch
 * file's two paths are made relative to the workspace, as the host writes them for files inside
 * it. Nothing is written by hand: run it again after changing the thread or the dataset.
 *
 *   node scripts/example-batch.mjs
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register as tsxRegister } from 'tsx/esm/api';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const examples = path.join(root, 'resources/examples');
const THREAD = 'Capital cities quiz.json';
const DATASET = 'evals/capitals.dataset.json';

const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-example-batch-'));
try {
  const ws = path.join(home, 'workspace');
  mkdirSync(path.join(ws, 'evals'), { recursive: true });
  cpSync(path.join(examples, THREAD), path.join(ws, THREAD));
  cpSync(path.join(examples, DATASET), path.join(ws, DATASET));
  try {
    execFileSync(process.execPath, [path.join(root, 'bin/stepwise.mjs'), 'eval', '--home', home, '--dataset', path.join(ws, DATASET), path.join(ws, THREAD)], { stdio: 'inherit' });
  } catch (err) {
    // Exit 1: an assertion failed — the example shows a failing case on purpose.
    if (err.status !== 1) throw err;
  }
  const made = path.join(ws, 'evals/capitals');
  const [batch] = readdirSync(made);
  const spec = JSON.parse(readFileSync(path.join(made, batch, '.batch.json'), 'utf8'));
  spec.threadFile = path.relative(ws, spec.threadFile).split(path.sep).join('/');
  spec.datasetFile = path.relative(ws, spec.datasetFile).split(path.sep).join('/');
  writeFileSync(path.join(made, batch, '.batch.json'), `${JSON.stringify(spec, null, 2)}\n`);

  // The CLI keeps the cases in the batch's case store (cases.jsonl); each is written out as the
  // app does when a case is first opened — its thread file in the batch folder and its run
  // record in the home — so the example opens with no store to read.
  const results0 = readFileSync(path.join(made, batch, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  tsxRegister();
  const { materializeCase, CASES_FILE } = await import('../main/core/eval/case-store.ts');
  for (const r of results0) await materializeCase(home, path.join(made, batch, r.threadFile));
  rmSync(path.join(made, batch, CASES_FILE), { force: true });

  rmSync(path.join(examples, 'evals/capitals'), { recursive: true, force: true });
  rmSync(path.join(examples, '.runs'), { recursive: true, force: true });
  cpSync(made, path.join(examples, 'evals/capitals'), { recursive: true });
  const results = readFileSync(path.join(made, batch, 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  for (const r of results) cpSync(path.join(home, 'runs', r.threadId), path.join(examples, '.runs', r.threadId), { recursive: true });
  console.log(`example batch ${batch}: ${results.length} cases, ${results.filter((r) => r.status === 'passed').length} passed`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
