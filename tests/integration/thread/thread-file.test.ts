// Thread files on disk: load errors a person can act on, large files, atomic writes under SIGKILL.
import { describe, expect, it } from 'vitest';
import { readFile, writeFile, readdir, stat } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadThreadFile, saveThreadFile, ThreadFileError } from '../../../main/core/threads/thread-file';
import type { Thread } from '../../../shared/thread/schema';
import { tempFolder } from '../../support/temp-folder';

const FIX = path.resolve(__dirname, '../../fixtures/threads');
const ROOT = path.resolve(__dirname, '../../..');
const dir = tempFolder('stepwise-thread-file-', 'file');

async function loadError(file: string): Promise<ThreadFileError> {
  try {
    await loadThreadFile(file);
  } catch (err) {
    expect(err).toBeInstanceOf(ThreadFileError);
    return err as ThreadFileError;
  }
  throw new Error(`${file} loaded, expected an error`);
}

describe('loadThreadFile', () => {
  it('loads a valid thread', async () => {
    const t = await loadThreadFile(path.join(FIX, 'stepwise-valid.json'));
    expect(t.title).toBe('Weather lookup');
    expect(t.context.messages).toHaveLength(3);
  });

  it('migrates a legacy file in memory without writing it', async () => {
    const file = dir('legacy.json');
    const text = await readFile(path.join(FIX, 'stepwise-legacy-v0.json'), 'utf8');
    await writeFile(file, text);
    const t = await loadThreadFile(file);
    expect(t.version).toBe(1);
    expect(t.runRefs).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('imports a foreign format on load', async () => {
    const t = await loadThreadFile(path.join(FIX, 'anthropic-messages.json'));
    expect(t.model.provider).toBe('anthropic');
  });

  it('gives line and column for malformed JSON, and leaves the file alone', async () => {
    const file = dir('malformed.json');
    const text = '{\n  "version": 1,\n  "id": "x",\n  "title": "t",,\n  "runRefs": []\n}\n';
    await writeFile(file, text);
    const err = await loadError(file);
    expect(err.kind).toBe('syntax');
    expect(err.position).toEqual({ line: 4, column: 16 });
    expect(err.message).toBe(`${file}: line 4, column 16: expected a double-quoted property name, found ','`);
    expect(await readFile(file, 'utf8')).toBe(text);
  });

  it('says a truncated file is truncated', async () => {
    const file = dir('truncated.json');
    const full = await readFile(path.join(FIX, 'stepwise-valid.json'), 'utf8');
    await writeFile(file, full.slice(0, Math.floor(full.length / 2)));
    const err = await loadError(file);
    expect(err.kind).toBe('truncated');
    expect(err.message).toMatch(/ends early \(truncated\?\)/);
    expect(err.message).toContain(file);
  });

  it('says an empty file is empty', async () => {
    const file = dir('empty.json');
    await writeFile(file, '');
    expect((await loadError(file)).message).toBe(`${file}: line 1, column 1: the file is empty: expected a JSON value`);
  });

  it('names the JSON pointer of each wrongly typed field', async () => {
    const file = dir('wrong-type.json');
    const t = JSON.parse(await readFile(path.join(FIX, 'stepwise-valid.json'), 'utf8'));
    t.context.messages[1].toolCalls[0].arguments = 'Paris';
    t.context.messages[2].role = 'robot';
    await writeFile(file, JSON.stringify(t));
    const err = await loadError(file);
    expect(err.kind).toBe('schema');
    expect(err.problems).toEqual([
      { pointer: '/context/messages/1/toolCalls/0/arguments', message: 'expected an object, got a string "Paris"' },
      { pointer: '/context/messages/2/role', message: 'expected "user" or "assistant", got "robot"' },
    ]);
    expect(err.message).toContain(file);
    expect(err.message).toContain('/context/messages/2/role: expected "user" or "assistant"');
  });

  it('refuses a document from a newer version with a clear message', async () => {
    const file = dir('newer.json');
    await writeFile(file, JSON.stringify({ version: 9, id: 'x' }));
    expect((await loadError(file)).message).toMatch(/\/version: written by a newer Stepwise \(document version 9\)/);
  });

  it('refuses to save an invalid thread and leaves the file as it was', async () => {
    const file = dir('keep.json');
    await writeFile(file, 'original');
    const bad = { version: 1, id: '', title: 't' } as unknown as Thread;
    await expect(saveThreadFile(file, bad)).rejects.toThrow(/\/id: must not be empty/);
    expect(await readFile(file, 'utf8')).toBe('original');
  });
});

describe('very large files (50 MB of base64 images)', () => {
  it('loads and saves without pathological slowness', async () => {
    const images = Array.from({ length: 25 }, () => randomBytes(1_500_000).toString('base64')); // 25 × 2 MB
    const thread: Thread = {
      version: 1,
      id: 'big',
      title: 'Big',
      model: { provider: 'scripted', id: 'scripted', params: {} },
      context: {
        systemPrompt: '',
        tools: [],
        messages: images.map((data, i) => ({ id: `m${i}`, role: 'user' as const, content: [{ type: 'text' as const, text: `image ${i}` }, { type: 'image' as const, mimeType: 'image/png', data }] })),
      },
      runRefs: [],
    };
    const file = dir('big.json');
    await saveThreadFile(file, thread);
    const size = (await readFile(file)).length;
    expect(size).toBeGreaterThan(50_000_000);
    const loaded = await loadThreadFile(file);
    expect(loaded.context.messages).toHaveLength(25);
    const last = loaded.context.messages[24];
    expect(last.role === 'user' && last.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: images[24] });
    // Speed is measured by benchmarks, not here; the test's own timeout bounds a quadratic step.

    // A truncated 50 MB file is reported as truncated.
    const text = await readFile(file, 'utf8');
    const cut = dir('big-cut.json');
    await writeFile(cut, text.slice(0, text.length - 1000));
    const err = await loadError(cut);
    expect(err.kind).toBe('truncated');
  }, 90_000);
});

describe('atomic writes', () => {
  it('a writer killed with SIGKILL mid-save leaves the old file whole and parseable', async () => {
    const file = dir('atomic.json');
    for (let round = 0; round < 2; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'save-loop.child.ts'), file, '8'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      // Wait for a complete save, then kill the moment the next save is in flight: a temp file
      // beside the target (atomic writer) or the target's size changing (an in-place writer).
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`child never saved: ${stderr}`)), 30_000);
        child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
        child.stdout.once('data', async () => {
          const full = (await stat(file)).size;
          const deadline = Date.now() + 20_000;
          while (Date.now() < deadline) {
            const names = await readdir(dir());
            const size = (await stat(file).catch(() => ({ size: -1 }))).size;
            if (names.some((n) => n.startsWith('atomic.json.')) || size !== full) {
              child.kill('SIGKILL');
              clearTimeout(timer);
              return resolve();
            }
          }
          reject(new Error('never saw a save in flight'));
        });
      });
      await new Promise((r) => child.once('close', r));
      expect(child.signalCode).toBe('SIGKILL');
      const t = await loadThreadFile(file);
      expect(t.id).toBe('atomic-test');
      expect(t.context.systemPrompt).toMatch(/^save \d+$/);
      const msg = t.context.messages[0];
      expect(msg.role === 'user' && msg.content[1].type === 'image' && msg.content[1].data.length).toBeGreaterThan(8_000_000);
    }
    // Only the thread file is a .json file; a killed writer leaves at most temp files beside it.
    expect((await readdir(dir())).filter((n) => n.startsWith('atomic')).filter((n) => n.endsWith('.json'))).toEqual(['atomic.json']);
  }, 120_000);
});
