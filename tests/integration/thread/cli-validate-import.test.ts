// `stepwise validate` and `stepwise import`, run as real processes through bin/stepwise.mjs.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { validateThread } from '../../../shared/thread/validate';
import { tempFolder } from '../../support/temp-folder';

const ROOT = path.resolve(__dirname, '../../..');
const FIX = path.join(ROOT, 'tests/fixtures/threads');
const dir = tempFolder('stepwise-cli-', 'file');

function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [path.join(ROOT, 'bin/stepwise.mjs'), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => (stdout += d));
    p.stderr.on('data', (d) => (stderr += d));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('stepwise validate', () => {
  it('exits 0 with one OK line for a valid thread', async () => {
    const r = await cli('validate', path.join(FIX, 'stepwise-valid.json'));
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toContain('OK — "Weather lookup", 3 messages, 1 tool');
  });

  it('exits 2 with every schema error as file:pointer: message', async () => {
    const t = JSON.parse(await readFile(path.join(FIX, 'stepwise-valid.json'), 'utf8'));
    t.title = 42;
    t.context.messages[0].role = 'human';
    const file = dir('bad.json');
    await writeFile(file, JSON.stringify(t, null, 2));
    const r = await cli('validate', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n').sort()).toEqual([
      `${file}:/context/messages/0/role: expected "user" or "assistant", got "human"`,
      `${file}:/title: expected a string, got the number 42`,
    ]);
  });

  it('a problem of the file as a whole is file: message, without an empty pointer', async () => {
    const file = dir('array.json');
    await writeFile(file, '[]');
    const r = await cli('validate', file);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.startsWith(`${file}: `), line).toBe(true);
  });

  /** The valid fixture changed by `change`, written as `name` and validated: exit 2, nothing on stdout. */
  async function validateChanged(name: string, change: (t: any) => void) {
    const t = JSON.parse(await readFile(path.join(FIX, 'stepwise-valid.json'), 'utf8'));
    change(t);
    const file = dir(name);
    await writeFile(file, JSON.stringify(t, null, 2));
    const r = await cli('validate', file);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    return { t, file, r };
  }

  it('exits 2 naming a repeated message id and tool call id with both places (the app still opens such a file)', async () => {
    const { t, file, r } = await validateChanged('repeated-ids.json', (t) => {
      t.context.messages[2].id = 'm1';
      t.context.messages[2].toolCalls = [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Lyon' } }];
    });
    expect(r.stderr.trim().split('\n')).toEqual([
      `${file}:/context/messages/2/id: message id "m1" is also used at /context/messages/0/id; ids must be unique in a thread`,
      `${file}:/context/messages/2/toolCalls/0/id: tool call id "call_1" is also used at /context/messages/1/toolCalls/0/id; ids must be unique in a thread`,
    ]);
    expect(validateThread(t).ok).toBe(true); // the schema alone accepts it
  });

  it('exits 2 naming the pointer of image data that is not base64, in a message and in a tool result', async () => {
    const { t, file, r } = await validateChanged('bad-base64.json', (t) => {
      t.context.messages[0].content.push({ type: 'image', mimeType: 'image/png', data: 'iVBORw0K GgoAAAANSUhEUg==' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' });
      t.context.messages[1].toolCalls[0].output = { isError: false, content: [{ type: 'image', mimeType: 'image/png', data: 'data:image/png;base64,iVBORw0KGgo=' }] };
    });
    expect(r.stderr.trim().split('\n')).toEqual([
      `${file}:/context/messages/0/content/1/data: is not valid base64 (RFC 4648 §4): " " at character 9 is not in the alphabet A–Z a–z 0–9 + /`,
      `${file}:/context/messages/1/toolCalls/0/output/content/0/data: is a data: URL, not base64: keep only what follows "base64," (the media type goes in mimeType)`,
    ]);
    expect(validateThread(t).ok).toBe(true); // the schema alone accepts it
  }, 120_000);

  it('exits 2 with line and column for malformed JSON', async () => {
    const file = dir('syntax.json');
    await writeFile(file, '{\n  "version": 1\n  "id": "x"\n}');
    const r = await cli('validate', file);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${file}:3:3: expected ',' or '}' after a property value, found '"'\n`);
  });
});

describe('stepwise import', () => {
  it('writes the thread to stdout, detecting the format', async () => {
    const r = await cli('import', path.join(FIX, 'anthropic-messages.json'));
    expect(r.code).toBe(0);
    const t = JSON.parse(r.stdout);
    expect(validateThread(t).ok).toBe(true);
    expect(t.model.provider).toBe('anthropic');
    expect(t.context.messages).toHaveLength(5);
  });

  it('writes to -o and the result validates', async () => {
    const out = dir('imported.json');
    const r = await cli('import', path.join(FIX, 'openai-responses.json'), '-o', out, '--title', 'Port change');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('from OpenAI Responses request');
    const v = await cli('validate', out);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain('"Port change", 4 messages');
  });

  it('exits 2 for an unknown format, naming what it looked for', async () => {
    const r = await cli('import', path.join(FIX, 'unknown-format.json'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/unknown-format\.json: unrecognised format: looked for a Stepwise thread .*OpenAI Chat Completions request.*OpenAI Responses request.*Anthropic Messages request/);
  });

  it('exits 2 when --format does not fit the file, naming the pointer', async () => {
    const r = await cli('import', path.join(FIX, 'openai-chat.json'), '--format', 'anthropic-messages');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/messages/0/role: expected "user" or "assistant", got "system" (reading it as Anthropic Messages request)');
  });
});

describe('bin/stepwise.mjs before the first install', () => {
  it('says to run npm start first (exit 2) instead of a module-not-found stack', async () => {
    // A copy of the launcher in a folder with sources but no node_modules and no build.
    const fresh = await mkdtemp(path.join(os.tmpdir(), 'stepwise-fresh-'));
    await mkdir(path.join(fresh, 'bin'), { recursive: true });
    await mkdir(path.join(fresh, 'main'), { recursive: true });
    await copyFile(path.join(ROOT, 'bin/stepwise.mjs'), path.join(fresh, 'bin/stepwise.mjs'));
    const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const p = spawn(process.execPath, [path.join(fresh, 'bin/stepwise.mjs'), '--help'], { cwd: fresh, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      p.stderr.on('data', (d) => (stderr += d));
      p.on('close', (code) => resolve({ code, stderr }));
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not installed yet. Run `npm start` once');
    expect(r.stderr).not.toContain('ERR_MODULE_NOT_FOUND');
    await rm(fresh, { recursive: true, force: true });
  });
});
