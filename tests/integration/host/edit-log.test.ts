/**
 * The thread store's edit log (main/core/store/edit-log.ts, edit-recovery.ts) with real files:
 * a "crash" is a store whose save never runs (a debounce longer than the test) or never
 * returns, and whose files are then closed as a dying process's are (`unwatchAll`, no save),
 * while a second store on the same folders recovers. Covers the torn last
 * line, a file changed outside while the host was down (log put aside and told), a crash
 * between a save and the log's removal, a change taken from the file while edits were unsaved,
 * a log that cannot be written (the edit is saved before it is acknowledged), the bytes a
 * keystroke costs in a large thread, and a property: any cut of a log replays a prefix of it.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { applyPatches, type Patch } from 'immer';
import { describe, expect, it } from 'vitest';
import { ThreadStore, type ThreadIO } from '../../../main/core/store/thread-store';
import { parseEditLog, replayEdits } from '../../../main/core/store/edit-recovery';
import { fileStamp } from '../../../main/core/store/open-thread';
import { processStart } from '../../../main/core/store/log-writer';
import { createHostCore } from '../../../main/core/host-core';
import { loadThreadFile, saveThreadFile } from '../../../main/core/threads/thread-file';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { makeHome, readThread, waitFor, writeThread } from '../../support/host-harness';

const NEVER = 2_000_000_000; // ms: a save that never comes before the "crash"
const io: ThreadIO = { load: (f) => loadThreadFile(f), save: saveThreadFile };

function setup(thread: Thread = scriptedThread([{ text: 'hi' }])) {
  const home = makeHome();
  writeThread(home, 't.json', thread);
  const file = path.join(home, 'workspace', 't.json');
  const editLogDir = path.join(home, 'edits');
  const logs = () => (fs.existsSync(editLogDir) ? fs.readdirSync(editLogDir).filter((n) => n.endsWith('.jsonl')).map((n) => path.join(editLogDir, n)) : []);
  const store = (o: Partial<ConstructorParameters<typeof ThreadStore>[0]> = {}) => new ThreadStore({ io, debounceMs: NEVER, editLogDir, ...o });
  return { home, file, thread, editLogDir, logs, store };
}

const prompt = (v: string): Patch[] => [{ op: 'replace', path: ['context', 'systemPrompt'], value: v }];

describe('edit log', () => {
  it('ignores a torn last line (an append the crash cut short, never acknowledged) and replays the rest', async () => {
    const s = setup();
    const a = s.store();
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('one'), 'client:1', 'k1');
    await a.edit(s.thread.id, 1, prompt('one two'), 'client:1', 'k2');
    const [log] = s.logs();
    fs.appendFileSync(log, '{"kind":"edit","version":3,"origin":"client:1","patches":[{"op":"repl'); // died mid-append
    await a.unwatchAll();

    const messages: string[] = [];
    const b = s.store({ log: (m) => messages.push(m) });
    const [r] = await b.recover();
    expect(r).toMatchObject({ kind: 'applied', edits: 2, editIds: ['k1', 'k2'] });
    expect(messages.join('\n')).toMatch(/ignored the last line: its write did not finish/);
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe('one two');
    expect(s.logs()).toEqual([]);
  });

  it('puts aside a log whose thread file was changed outside while the host was down, and tells the client that opens it', async () => {
    const s = setup();
    const a = s.store();
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('typed in Stepwise'), 'client:1');
    await a.unwatchAll();
    // Host down; the file is edited by hand.
    writeThread(s.home, 't.json', { ...s.thread, title: 'edited by hand' });

    const core = await createHostCore({ home: s.home, log: () => {} });
    try {
      expect(core.recovered).toEqual([expect.objectContaining({ kind: 'aside', edits: 1 })]);
      expect(readThread(s.home, 't.json').title).toBe('edited by hand'); // the outside change is kept as it is
      expect(readThread(s.home, 't.json').context.systemPrompt).toBe(s.thread.context.systemPrompt);
      const aside = fs.readdirSync(path.join(s.editLogDir, 'aside'));
      expect(aside).toHaveLength(1);
      expect(fs.readFileSync(path.join(s.editLogDir, 'aside', aside[0]), 'utf8')).toContain('typed in Stepwise');
      const pushes: { type: string; level?: string; message?: string }[] = [];
      const conn = core.connect((p) => pushes.push(p));
      await conn.request('thread.open', { path: 't.json' });
      const notice = pushes.find((p) => p.type === 'notice');
      expect(notice?.level).toBe('error');
      expect(notice?.message).toContain(`edits/aside/${aside[0]}`);
      expect(notice?.message).toMatch(/changed outside Stepwise/);
      expect(notice?.message).not.toContain(s.home); // no absolute path to a client
    } finally {
      await core.close();
    }
  });

  it('a crash between a save and the removal of the log applies the edits after the save once, not twice', async () => {
    const s = setup();
    let hang = false;
    const a = s.store({ io: { load: io.load, save: async (f, t) => { await saveThreadFile(f, t); if (hang) await new Promise(() => {}); } } });
    await a.open(s.file);
    const id = (text: string) => `00000000-0000-4000-8000-0000000000${text.charCodeAt(0).toString(16)}` as const;
    const add = (i: number, text: string): Patch[] => [{ op: 'add', path: ['context', 'messages', i], value: userMessage(text, id(text) as `${string}-${string}-${string}-${string}-${string}`) }];
    await a.edit(s.thread.id, 0, add(1, 'a'), 'client:1');
    await a.edit(s.thread.id, 1, add(2, 'b'), 'client:1');
    hang = true;
    void a.flush(); // writes the file, then "dies" before it can trim the log
    await waitFor(() => readThread(s.home, 't.json').context.messages.length === 3, 10_000, 'the save of version 2');
    await a.edit(s.thread.id, 2, add(3, 'c'), 'client:1');
    await a.unwatchAll();

    const [r] = await s.store().recover();
    expect(r).toMatchObject({ kind: 'applied', edits: 1 });
    expect(readThread(s.home, 't.json').context.messages.map((m) => m.id)).toEqual([s.thread.context.messages[0].id, id('a'), id('b'), id('c')]);
  });

  it('a change taken from the file while edits were unsaved restarts the log from the file, so both survive a crash', async () => {
    const s = setup();
    const a = s.store({ watch: { debounceMs: 20 } });
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('typed in Stepwise'), 'client:1');
    writeThread(s.home, 't.json', { ...s.thread, title: 'edited by hand' });
    await waitFor(() => a.get(s.thread.id).thread.title === 'edited by hand', 10_000, 'the outside change to be taken');
    await a.edit(s.thread.id, a.get(s.thread.id).version, prompt('typed in Stepwise, more'), 'client:1');
    await a.unwatchAll();

    const [r] = await s.store().recover();
    expect(r.kind).toBe('applied');
    const t = readThread(s.home, 't.json');
    expect([t.title, t.context.systemPrompt]).toEqual(['edited by hand', 'typed in Stepwise, more']);
  });

  it('the same content written to the file again (a new stamp, no change) keeps the log replayable', async () => {
    const s = setup();
    const a = s.store({ watch: { debounceMs: 20 } });
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('typed'), 'client:1');
    const before = fs.statSync(s.file);
    await new Promise((r) => setTimeout(r, 20)); // a later modification time
    writeThread(s.home, 't.json', s.thread); // e.g. an editor saving the unchanged file
    expect(fs.statSync(s.file).mtimeMs).not.toBe(before.mtimeMs);
    // The store reads the file again (after its watch's debounce); the log then names the new stamp.
    await waitFor(() => fs.readFileSync(s.logs()[0], 'utf8').includes(String(fs.statSync(s.file).mtimeMs)), 3000).catch(() => {});
    await a.unwatchAll();

    const [r] = await s.store().recover();
    expect(r).toMatchObject({ kind: 'applied', edits: 1 });
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe('typed');
  });

  it('leaves alone the log of a thread still open (another host core of this process) or written by another running process', async () => {
    const s = setup();
    const a = s.store();
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('still typing'), 'client:1');
    const [log] = s.logs();
    expect(await s.store().recover()).toEqual([expect.objectContaining({ kind: 'waiting', log })]);
    await a.unwatchAll();
    // The same log, as if written by a live process of another host (here: the test runner's parent, its pid and start).
    const other = log.replace(/-\d+\.jsonl$/, `-${process.ppid}.jsonl`);
    const [base, ...rest] = fs.readFileSync(log, 'utf8').split('\n');
    fs.writeFileSync(other, [JSON.stringify({ ...JSON.parse(base), pid: process.ppid, start: processStart(process.ppid) }), ...rest].join('\n'));
    fs.rmSync(log);
    expect(await s.store().recover()).toEqual([expect.objectContaining({ kind: 'waiting', log: other, reason: expect.stringMatching(/another running Stepwise host/) })]);
    expect(fs.existsSync(other)).toBe(true);
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe(s.thread.context.systemPrompt);
  });

  it.runIf(processStart('self') !== undefined)('replays the log of a stopped host whose pid now belongs to another process (a reboot, a pid wrap)', async () => {
    const s = setup();
    const a = s.store();
    await a.open(s.file);
    await a.edit(s.thread.id, 0, prompt('typed before the crash'), 'client:1');
    await a.unwatchAll();
    // The log names a pid that runs (the test runner's parent), but it was written by a process that started at another time.
    const [log] = s.logs();
    fs.renameSync(log, log.replace(/-\d+\.jsonl$/, `-${process.ppid}.jsonl`));
    expect(await s.store().recover()).toEqual([expect.objectContaining({ kind: 'applied', edits: 1 })]);
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe('typed before the crash');
  });

  it('edits typed after a rename are replayed onto the renamed file', async () => {
    const s = setup();
    const a = await createHostCore({ home: s.home, saveDebounceMs: NEVER, log: () => {} });
    const conn = a.connect(() => {});
    await conn.request('thread.open', { path: 't.json' });
    await conn.request('thread.edit', { threadId: s.thread.id, baseVersion: 0, patches: prompt('before') });
    const entry = (await conn.request('workspace.rename', { path: 't.json', title: 'Renamed' })) as { path: string };
    const { version } = (await conn.request('thread.open', { path: entry.path })) as { version: number };
    await conn.request('thread.edit', { threadId: s.thread.id, baseVersion: version, patches: prompt('before and after') });
    await a.threads.unwatchAll(); // the "crash": nothing more from this host

    const b = await createHostCore({ home: s.home, log: () => {} });
    try {
      expect(b.recovered.map((r) => r.kind)).toEqual(['applied']);
      const t = readThread(s.home, 'Renamed.json');
      expect([t.title, t.context.systemPrompt]).toEqual(['Renamed', 'before and after']);
    } finally {
      await b.close();
    }
  });

  it('saves the thread before acknowledging when the log cannot be written', async () => {
    const s = setup();
    fs.writeFileSync(s.editLogDir, 'a file where the edit-log folder should be');
    const messages: string[] = [];
    const a = s.store({ log: (m) => messages.push(m) });
    await a.open(s.file);
    expect(await a.edit(s.thread.id, 0, prompt('saved instead'), 'client:1')).toEqual({ version: 1 });
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe('saved instead');
    expect(messages.join('\n')).toMatch(/could not append to the edit log .* saving the thread instead/);
    // A save that fails too: the edit is refused as not on disk (and said so), kept in memory.
    const b = setup();
    fs.writeFileSync(b.editLogDir, 'not a folder');
    const store = b.store({ io: { load: io.load, save: () => Promise.reject(Object.assign(new Error('no space'), { code: 'ENOSPC' })) } });
    await store.open(b.file);
    await expect(store.edit(b.thread.id, 0, prompt('lost?'), 'client:1')).rejects.toMatchObject({ code: 'not_saved', message: expect.stringMatching(/edit log: (ENOTDIR|EEXIST); save: ENOSPC/) });
  });

  it('a keystroke in a large thread appends its patch, not the thread', async () => {
    const big = scriptedThread([{ text: 'hi' }]);
    const image = { type: 'image' as const, mimeType: 'image/png', data: 'A'.repeat(8 * 1024 * 1024) };
    big.context.messages[0].content.push(image as never);
    const s = setup(big);
    const before = fs.statSync(s.file);
    const a = s.store();
    await a.open(s.file);
    let text = '';
    for (let v = 0; v < 50; v++) {
      text += 'x';
      await a.edit(big.id, v, prompt(text), 'client:1', `key-${v}`);
    }
    const [log] = s.logs();
    const bytes = fs.statSync(log).size;
    await a.unwatchAll();
    expect(bytes).toBeLessThan(50 * 400); // a few hundred bytes per key (its line), the base line once
    expect(fs.statSync(s.file).mtimeMs).toBe(before.mtimeMs); // the 8 MB file was not rewritten
    const [r] = await s.store().recover();
    expect(r).toMatchObject({ kind: 'applied', edits: 50 });
    expect(readThread(s.home, 't.json').context.systemPrompt).toBe(text);
  });

  it('property: a log cut at any byte replays exactly the edits whose lines are whole', async () => {
    const s = setup();
    const a = s.store();
    await a.open(s.file);
    const values = ['a', 'ab', 'abc', 'abc\n"}', 'ab', 'ab ✓ é'];
    for (const [i, v] of values.entries()) await a.edit(s.thread.id, i, prompt(v), 'client:1');
    const bytes = fs.readFileSync(s.logs()[0]);
    await a.unwatchAll();
    const stamp = await fileStamp(s.file);
    const doc = await loadThreadFile(s.file);
    fc.assert(
      fc.property(fc.nat({ max: bytes.length }), (cut) => {
        const part = bytes.subarray(0, cut).toString('utf8'); // a cut inside a character decodes to U+FFFD
        const parsed = parseEditLog(part);
        const whole = part.split('\n').length - 1; // newline-terminated lines
        if (whole === 0) {
          expect('problem' in parsed).toBe(true);
          return;
        }
        if ('problem' in parsed) throw new Error(parsed.problem);
        const edits = parsed.lines.filter((l) => l.kind === 'edit');
        expect(edits).toHaveLength(whole - 1);
        const r = replayEdits(doc, parsed.lines, stamp);
        if ('problem' in r) throw new Error(r.problem);
        const expected = edits.length ? values[edits.length - 1] : doc.context.systemPrompt;
        expect(r.doc.context.systemPrompt).toBe(expected);
        expect(r.doc).toEqual(edits.reduce((d, e) => applyPatches(d, e.patches), doc));
      }),
    );
  });
});
