/**
 * The workspace folder watch: real files in a temp folder and real recursive fs.watch; the
 * watch failing is simulated by a stand-in `fs.watch` whose watcher emits an error.
 */
import fs from 'node:fs';
import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { listingKey, mayChangeTree, watchWorkspace, type WorkspaceWatch } from './workspace-watch';
import { tempFolder } from '../../../tests/support/temp-folder';

const dir = tempFolder('stepwise-ws-watch-', 'test');

async function watching(root: string, opts: Parameters<typeof watchWorkspace>[2] = {}) {
  let changes = 0;
  const logs: string[] = [];
  const w = watchWorkspace(root, () => changes++, { debounceMs: 20, retryMs: 50, log: (m) => logs.push(m), ...opts });
  // fs.watch on Linux arms its inotify watches asynchronously for a recursive watch.
  await new Promise((r) => setTimeout(r, 100));
  return { w, logs, changes: () => changes };
}

describe('watchWorkspace', () => {
  it('reports a thread file added, renamed and removed, in sub-folders too, once per burst', async () => {
    fs.mkdirSync(dir('ws', 'sub'), { recursive: true });
    const { w, changes } = await watching(dir('ws'));
    try {
      for (let i = 0; i < 5; i++) fs.writeFileSync(dir('ws', `t${i}.json`), '{}');
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(0), { timeout: 3000 });
      await new Promise((r) => setTimeout(r, 100));
      expect(changes()).toBe(1);
      fs.writeFileSync(dir('ws', 'sub', 'n.json'), '{}');
      await vi.waitFor(() => expect(changes()).toBe(2), { timeout: 3000 });
      fs.renameSync(dir('ws', 'sub', 'n.json'), dir('ws', 'sub', 'm.json'));
      await vi.waitFor(() => expect(changes()).toBe(3), { timeout: 3000 });
      fs.rmSync(dir('ws', 't0.json'));
      await vi.waitFor(() => expect(changes()).toBe(4), { timeout: 3000 });
    } finally {
      w.close();
    }
  });

  it('reports a file removed after atomic saves replaced it, and files in a folder made after the start', async () => {
    fs.mkdirSync(dir('ws'), { recursive: true });
    fs.writeFileSync(dir('ws', 'a.json'), '{}');
    const { w, changes } = await watching(dir('ws'));
    try {
      for (let i = 0; i < 3; i++) {
        fs.writeFileSync(dir('ws', `a.json.${i}abc`), `{"v":${i}}`);
        fs.renameSync(dir('ws', `a.json.${i}abc`), dir('ws', 'a.json'));
      }
      await vi.waitFor(() => expect(changes()).toBe(1), { timeout: 3000 });
      fs.rmSync(dir('ws', 'a.json'));
      await vi.waitFor(() => expect(changes()).toBe(2), { timeout: 3000 });
      fs.mkdirSync(dir('ws', 'new'));
      await vi.waitFor(() => expect(changes()).toBe(3), { timeout: 3000 });
      fs.writeFileSync(dir('ws', 'new', 'b.json'), '{}');
      await vi.waitFor(() => expect(changes()).toBe(4), { timeout: 3000 });
    } finally {
      w.close();
    }
  });

  it('ignores hidden entries and the temporary files of atomic writes', async () => {
    fs.mkdirSync(dir('ws'), { recursive: true });
    const { w, changes } = await watching(dir('ws'));
    try {
      fs.writeFileSync(dir('ws', '.hidden.json'), '{}');
      fs.writeFileSync(dir('ws', 'a.json.123456'), '{}');
      fs.rmSync(dir('ws', 'a.json.123456'));
      await new Promise((r) => setTimeout(r, 200));
      expect(changes()).toBe(0);
    } finally {
      w.close();
    }
  });

  it('survives the folder being removed: reports it, and follows the folder once it is back', async () => {
    fs.mkdirSync(dir('ws'), { recursive: true });
    const { w, changes, logs } = await watching(dir('ws'));
    try {
      fs.rmSync(dir('ws'), { recursive: true });
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(0), { timeout: 3000 });
      expect(logs.join('\n')).toMatch(/stopped watching the workspace folder/);
      fs.mkdirSync(dir('ws'));
      await vi.waitFor(() => expect(logs.join('\n')).toMatch(/watching the workspace folder again/), { timeout: 3000 });
      await new Promise((r) => setTimeout(r, 100));
      const before = changes();
      fs.writeFileSync(dir('ws', 'back.json'), '{}');
      await vi.waitFor(() => expect(changes()).toBeGreaterThan(before), { timeout: 3000 });
    } finally {
      w.close();
    }
  });

  it('a watch error closes the watcher, is logged once, and the watch is made again; close stops retrying', async () => {
    fs.mkdirSync(dir('ws'), { recursive: true });
    const made: (EventEmitter & { close: () => void; closed: boolean })[] = [];
    const fake = (() => {
      const e = Object.assign(new EventEmitter(), { closed: false, close() { this.closed = true; } });
      made.push(e);
      return e;
    }) as unknown as typeof fs.watch;
    let w: WorkspaceWatch | undefined;
    const logs: string[] = [];
    let changes = 0;
    try {
      w = watchWorkspace(dir('ws'), () => changes++, { debounceMs: 5, retryMs: 20, watch: fake, log: (m) => logs.push(m) });
      expect(made).toHaveLength(1);
      made[0].emit('error', new Error('ENOSPC: System limit for number of file watchers reached'));
      expect(made[0].closed).toBe(true);
      await vi.waitFor(() => expect(made).toHaveLength(2), { timeout: 2000 });
      await vi.waitFor(() => expect(changes).toBeGreaterThan(0), { timeout: 2000 });
      expect(logs).toEqual([expect.stringMatching(/stopped watching the workspace folder: ENOSPC/), 'watching the workspace folder again']);
      w.close();
      expect(made[1].closed).toBe(true);
      made[1].emit('error', new Error('late'));
      await new Promise((r) => setTimeout(r, 60));
      expect(made).toHaveLength(2);
    } finally {
      w?.close();
    }
  });

  it('a watch that cannot start (the folder is missing) does not throw', () => {
    const w = watchWorkspace(dir('missing'), () => {}, { retryMs: 10_000 });
    w.close();
  });
});

describe('mayChangeTree', () => {
  it('counts visible names and nameless events, never hidden segments or atomic-write temp files', () => {
    expect(mayChangeTree(undefined)).toBe(true);
    expect(mayChangeTree('a/b.json')).toBe(true);
    expect(mayChangeTree('folder')).toBe(true);
    expect(mayChangeTree('a/.git/x')).toBe(false);
    expect(mayChangeTree('b.json.2841983')).toBe(false);
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9 ]{1,8}$/), { minLength: 1, maxLength: 4 }), fc.nat(2 ** 31), (segs, n) => {
        const rel = segs.join('/');
        expect(mayChangeTree(`${rel}.json`)).toBe(true);
        expect(mayChangeTree(`${rel}.json.${n}`)).toBe(false);
        expect(mayChangeTree(`.${rel}`)).toBe(false);
      }),
    );
  });
});

describe('listingKey', () => {
  it('differs when a path, title or error differs, and not otherwise', () => {
    const a = [{ path: 'a.json', kind: 'thread', title: 'A', id: '1' }];
    expect(listingKey(a)).toBe(listingKey([{ ...a[0] }]));
    expect(listingKey(a)).not.toBe(listingKey([{ ...a[0], title: 'B' }]));
    expect(listingKey(a)).not.toBe(listingKey([{ ...a[0], error: 'bad' }]));
    expect(listingKey(a)).not.toBe(listingKey([]));
  });
});
