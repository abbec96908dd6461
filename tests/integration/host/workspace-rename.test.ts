/**
 * An open thread renamed or moved through the host (`workspace.rename`, `workspace.move`): the
 * host moves the file itself (ThreadStore.relocate), so its file watch does not take the rename
 * for a change made outside Stepwise — no error logged, no `thread_patch` of origin `file`, no
 * notice — while every window still gets the new title (origin `host`), an edit not saved yet is
 * kept and saved under the new name, and a real outside edit of the moved file is still taken.
 * Real host core, real files, real fs.watch on the thread files and the workspace.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostPush } from '../../../shared/protocol/host-api';
import type { LogLevel } from '../../../main/core/bridge/stream-bridge';
import { scriptedThread } from '../../support/threads';
import { hostCores, makeHome, readThread, RecordingClient, rejection, waitFor, writeThread } from '../../support/host-harness';

const start = hostCores();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function openThread(saveDebounceMs: number) {
  const home = makeHome();
  const thread = scriptedThread([{ text: 'hi' }]);
  writeThread(home, 'w.json', thread);
  const logs: { level: LogLevel; message: string }[] = [];
  const core = await start({
    home,
    log: (level, message) => logs.push({ level, message }),
    saveDebounceMs,
    watchThreadFiles: { debounceMs: 20 },
    watchWorkspace: { debounceMs: 20 },
  });
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  await conn.request('thread.open', { path: 'w.json' });
  return { home, thread, logs, client, conn };
}

/** What the host said was wrong, and what it took for a change made outside. */
function complaints(logs: { level: LogLevel; message: string }[], pushes: HostPush[]) {
  return {
    logged: logs.filter((l) => l.level === 'error' || l.level === 'warn' || /outside Stepwise|does not load|no such file/i.test(l.message)).map((l) => `${l.level}: ${l.message}`),
    outsidePatches: pushes.filter((p) => p.type === 'thread_patch' && p.origin === 'file'),
    notices: pushes.filter((p) => p.type === 'notice'),
  };
}
const NONE = { logged: [], outsidePatches: [], notices: [] };

describe('an open thread renamed or moved by the host', () => {
  it('is not taken for a change made outside: nothing logged as an error, no outside-change push; the title reaches every window', async () => {
    const { home, thread, logs, client, conn } = await openThread(40);
    const entry = (await conn.request('workspace.rename', { path: 'w.json', title: 'Renamed' })) as { path: string };
    expect(entry.path).toBe('Renamed.json');
    // Several debounce periods of both watches: whatever they were going to report has come.
    await sleep(400);
    expect(complaints(logs, client.pushes)).toEqual(NONE);
    const titles = client.pushes.filter((p) => p.type === 'thread_patch').map((p) => p.type === 'thread_patch' && [p.origin, p.patches]);
    expect(titles).toEqual([['host', [{ op: 'replace', path: ['title'], value: 'Renamed' }]]]);
    expect(fs.existsSync(path.join(home, 'workspace', 'w.json'))).toBe(false);
    expect(readThread(home, 'Renamed.json')).toMatchObject({ id: thread.id, title: 'Renamed' });
    const open = (await conn.request('thread.open', { path: 'Renamed.json' })) as { version: number; thread: { title: string } };
    expect(open.thread.title).toBe('Renamed');

    // Moved into a folder: the same.
    await conn.request('workspace.createFolder', { path: 'kept' });
    const movedTo = (await conn.request('workspace.move', { path: 'Renamed.json', toFolder: 'kept' })) as { path: string };
    expect(movedTo.path).toBe('kept/Renamed.json');
    await sleep(400);
    expect(complaints(logs, client.pushes)).toEqual(NONE);

    // The watch follows the file: a real outside edit of it is still taken.
    const file = path.join(home, 'workspace', 'kept', 'Renamed.json');
    fs.writeFileSync(file, JSON.stringify({ ...readThread(home, 'kept/Renamed.json'), context: { ...thread.context, systemPrompt: 'edited outside' } }, null, 2));
    const outside = await waitFor(() => client.pushes.find((p) => p.type === 'thread_patch' && p.origin === 'file'), 5000, 'the outside edit');
    expect(outside).toMatchObject({ patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'edited outside' }] });
    conn.close();
  });

  it('keeps an edit not saved yet and saves it under the new name, with a later edit, without complaint', async () => {
    const { home, thread, logs, client, conn } = await openThread(60_000); // no save before the window closes
    await conn.request('thread.edit', { threadId: thread.id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'typed before the rename' }] });
    await conn.request('workspace.rename', { path: 'w.json', title: 'Renamed' });
    await sleep(400);
    expect(complaints(logs, client.pushes)).toEqual(NONE);
    expect(fs.existsSync(path.join(home, 'workspace', 'w.json'))).toBe(false);
    expect(readThread(home, 'Renamed.json').title).toBe('Renamed');
    const open = (await conn.request('thread.open', { path: 'Renamed.json' })) as { version: number; thread: { title: string; context: { systemPrompt: string } } };
    expect([open.thread.title, open.thread.context.systemPrompt]).toEqual(['Renamed', 'typed before the rename']);
    await conn.request('thread.edit', { threadId: thread.id, baseVersion: open.version, patches: [{ op: 'replace', path: ['context', 'tools'], value: [] }] });
    conn.close(); // the last window closing saves the thread
    await waitFor(() => readThread(home, 'Renamed.json').context.systemPrompt === 'typed before the rename', 5000, 'the save under the new name');
    expect(readThread(home, 'Renamed.json')).toMatchObject({ title: 'Renamed', context: { tools: [] } });
    expect(fs.existsSync(path.join(home, 'workspace', 'w.json'))).toBe(false);
    expect(complaints(logs, client.pushes)).toEqual(NONE);
  });

  it('a rename refused (the title is taken) leaves the thread where it was, still watched', async () => {
    const { home, thread, logs, client, conn } = await openThread(40);
    writeThread(home, 'Other.json', scriptedThread([{ text: 'other' }], { title: 'Other' }));
    expect(await rejection(conn.request('workspace.rename', { path: 'w.json', title: 'Other' }))).toMatchObject({ code: 'exists' });
    const file = path.join(home, 'workspace', 'w.json');
    fs.writeFileSync(file, JSON.stringify({ ...readThread(home, 'w.json'), context: { ...thread.context, systemPrompt: 'edited outside' } }, null, 2));
    await waitFor(() => client.pushes.find((p) => p.type === 'thread_patch' && p.origin === 'file'), 5000, 'the outside edit');
    expect(logs.filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]); // an outside edit taken is no error either
    expect(client.pushes.filter((p) => p.type === 'notice')).toEqual([]);
    conn.close();
  });
});
