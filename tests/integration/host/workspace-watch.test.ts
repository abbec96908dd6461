/**
 * docs/architecture.md#the-thread-document: the host follows the workspace folder. A thread file
 * added, renamed or removed outside Stepwise reaches every client as `workspace_changed`; the
 * host's own saves of an open thread, which change nothing the tree shows, push nothing; the
 * workspace folder removed and made again is followed again. Real host core, real files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import type { HostConnection } from '../../../main/core/host-core';
import { scriptedThread } from '../../support/threads';
import { makeHome, RecordingClient, waitFor, writeThread } from '../../support/host-harness';

let core: HostCore | undefined;
const conns: HostConnection[] = [];
afterEach(async () => {
  for (const c of conns.splice(0)) c.close();
  await core?.close();
  core = undefined;
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const changes = (c: RecordingClient) => c.pushes.filter((p) => p.type === 'workspace_changed').length;

async function start(home: string) {
  core = await createHostCore({ home, log: () => {}, saveDebounceMs: 20, watchWorkspace: { debounceMs: 30, retryMs: 100 } });
  const a = new RecordingClient();
  const b = new RecordingClient();
  for (const c of [a, b]) conns.push(core.connect(c.send));
  await sleep(150); // the recursive watch arms asynchronously
  return { a, b, ws: path.join(home, 'workspace') };
}

describe('workspace folder watch', () => {
  it('pushes workspace_changed to every client for a file added, renamed and removed outside', async () => {
    const home = makeHome();
    writeThread(home, 'one.json', scriptedThread([{ text: 'hi' }], { title: 'one' }));
    const { a, b, ws } = await start(home);
    fs.writeFileSync(path.join(ws, 'two.json'), JSON.stringify(scriptedThread([{ text: 'x' }], { title: 'two' })));
    await waitFor(() => changes(a) === 1 && changes(b) === 1, 3000, 'a push for the added file');
    expect((await conns[0].request('workspace.list', {})) as { path: string }[]).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'two.json' })]));
    fs.renameSync(path.join(ws, 'two.json'), path.join(ws, 'three.json'));
    await waitFor(() => changes(a) === 2 && changes(b) === 2, 3000, 'a push for the renamed file');
    fs.rmSync(path.join(ws, 'three.json'));
    await waitFor(() => changes(a) === 3 && changes(b) === 3, 3000, 'a push for the removed file');
  });

  it('does not push for the host saving an open thread, and follows the folder after it was removed', async () => {
    const home = makeHome();
    const t = scriptedThread([{ text: 'hi' }], { title: 'one' });
    writeThread(home, 'one.json', t);
    const { a, ws } = await start(home);
    const opened = (await conns[0].request('thread.open', { path: 'one.json' })) as { version: number };
    await conns[0].request('thread.edit', { threadId: t.id, baseVersion: opened.version, editId: 'e1', patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'saved by the host' }] });
    await waitFor(() => fs.readFileSync(path.join(ws, 'one.json'), 'utf8').includes('saved by the host'), 3000, 'the save');
    await sleep(300);
    expect(changes(a)).toBe(0);
    fs.rmSync(ws, { recursive: true });
    await waitFor(() => changes(a) >= 1, 3000, 'a push for the removed folder');
    // Listing made the folder again; the watch follows it.
    await waitFor(() => fs.existsSync(ws), 3000, 'the folder made again');
    await sleep(400);
    const before = changes(a);
    fs.writeFileSync(path.join(ws, 'new.json'), JSON.stringify(scriptedThread([{ text: 'x' }], { title: 'new' })));
    await waitFor(() => changes(a) > before, 3000, 'a push for a file in the folder made again');
  });

  it('an open thread whose file is renamed outside follows it: later edits are saved to the new file', async () => {
    const home = makeHome();
    const t = scriptedThread([{ text: 'hi' }], { title: 'one' });
    writeThread(home, 'one.json', t);
    const { a, ws } = await start(home);
    const opened = (await conns[0].request('thread.open', { path: 'one.json' })) as { version: number };
    fs.mkdirSync(path.join(ws, 'moved'));
    fs.renameSync(path.join(ws, 'one.json'), path.join(ws, 'moved', 'one.json'));
    await waitFor(() => core!.threads.get(t.id).file === path.join(ws, 'moved', 'one.json'), 3000, 'the open thread following its file');
    await waitFor(() => changes(a) >= 1, 3000, 'a push for the moved file');
    await conns[0].request('thread.edit', { threadId: t.id, baseVersion: opened.version, editId: 'e1', patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'after the move' }] });
    await waitFor(() => fs.readFileSync(path.join(ws, 'moved', 'one.json'), 'utf8').includes('after the move'), 3000, 'the save to the new file');
    expect(fs.existsSync(path.join(ws, 'one.json'))).toBe(false);
  });
});
