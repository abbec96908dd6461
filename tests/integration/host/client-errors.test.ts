/**
 * Errors a client is sent never show an absolute path: each file-system failure of the workspace
 * store, the thread store and the run journal (ENOENT, EISDIR, ENOTDIR, EEXIST, ENAMETOOLONG,
 * ELOOP, EACCES, a symlink out, a bad file, a duplicate id) is triggered through a real host core
 * and its message checked for the home folder, the temp folder and the user's home.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostCore, type HostCore, type HostConnection } from '../../../main/core/host-core';
import { scriptedThread } from '../../support/threads';
import { makeHome, writeThread } from '../../support/host-harness';

let core: HostCore | undefined;
let home: string;
afterEach(async () => {
  await core?.close();
  core = undefined;
  fs.rmSync(home, { recursive: true, force: true });
});

const isRoot = process.getuid?.() === 0;

async function start(): Promise<{ conn: HostConnection; ws: string }> {
  home = makeHome();
  core = await createHostCore({ home, log: () => {}, watchThreadFiles: false });
  return { conn: core.connect(() => {}), ws: path.join(home, 'workspace') };
}

/** The rejection of `p`, checked to hold no absolute path of this machine. */
async function refusal(p: Promise<unknown>): Promise<{ code?: string; message: string }> {
  let err: { code?: string; message: string } | undefined;
  try {
    await p;
  } catch (e) {
    err = e as { code?: string; message: string };
  }
  expect(err, 'expected a rejection').toBeDefined();
  const message = String(err!.message);
  for (const dir of [home, fs.realpathSync(home), os.tmpdir(), fs.realpathSync(os.tmpdir()), os.homedir()]) {
    expect(message).not.toContain(dir);
  }
  expect(message).not.toMatch(/(^|[\s'"(])\/(tmp|root|home|Users|private|var)\b/);
  return err!;
}

describe('errors sent to a client name no absolute path', () => {
  it('thread.open: missing file, folder, file used as a folder, bad JSON, duplicate id', async () => {
    const { conn, ws } = await start();
    expect(await refusal(conn.request('thread.open', { path: 'missing.json' }))).toMatchObject({ message: 'missing.json: no such file' });
    fs.mkdirSync(path.join(ws, 'Folder'));
    expect((await refusal(conn.request('thread.open', { path: 'Folder' }))).message).toBe('Folder: is a folder, not a thread file');
    const t = scriptedThread([{ text: 'hi' }]);
    writeThread(home, 'a.json', t);
    expect((await refusal(conn.request('thread.open', { path: 'a.json/x.json' }))).message).toBe('a.json/x.json: a part of the path is a file, not a folder');
    fs.writeFileSync(path.join(ws, 'Broken.json'), '{"version": 1, "id": ');
    expect((await refusal(conn.request('thread.open', { path: 'Broken.json' }))).message).toMatch(/^Broken\.json: line 1, column 22: /);
    writeThread(home, 'b.json', t);
    await conn.request('thread.open', { path: 'a.json' });
    const dup = await refusal(conn.request('thread.open', { path: 'b.json' }));
    expect(dup).toMatchObject({ code: 'duplicate_thread_id', message: expect.stringMatching(/^b\.json has the same thread id as a\.json/) });
  });

  it('thread.open and workspace requests: names over 255 bytes, symbolic links out and in a loop', async () => {
    const { conn, ws } = await start();
    const long = '\u00e9'.repeat(300);
    expect((await refusal(conn.request('thread.open', { path: `${long}.json` }))).message).toMatch(/is 605 bytes long in UTF-8; a file or folder name may be at most 255 bytes$/);
    expect(await refusal(conn.request('workspace.createFolder', { path: long }))).toMatchObject({ code: 'invalid' });
    expect(await refusal(conn.request('workspace.rename', { path: `${long}.json`, title: 'x' }))).toMatchObject({ code: 'invalid' });
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-outside-'));
    try {
      fs.symlinkSync(outside, path.join(ws, 'escape'));
      expect((await refusal(conn.request('thread.open', { path: 'escape/secret.json' }))).message).toMatch(/leads outside the workspace/);
      expect(await refusal(conn.request('workspace.create', { folder: 'escape', title: 'x' }))).toMatchObject({ code: 'outside' });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
    fs.symlinkSync(path.join(ws, 'loop2'), path.join(ws, 'loop1'));
    fs.symlinkSync(path.join(ws, 'loop1'), path.join(ws, 'loop2'));
    expect(await refusal(conn.request('thread.open', { path: 'loop1/x.json' }))).toMatchObject({ code: 'invalid', message: expect.stringContaining('loop of symbolic links') });
    expect(await refusal(conn.request('workspace.delete', { path: 'loop1/x.json' }))).toMatchObject({ code: 'invalid' });
  });

  it('workspace requests: a file in the way of a folder, a missing entry, a workspace folder that is a file', async () => {
    const { conn, ws } = await start();
    writeThread(home, 'a.json', scriptedThread([{ text: 'hi' }]));
    expect(await refusal(conn.request('workspace.createFolder', { path: 'a.json/sub' }))).toMatchObject({ message: 'could not create the folder "a.json/sub": a part of the path is a file, not a folder' });
    expect(await refusal(conn.request('workspace.create', { folder: 'a.json', title: 'x' }))).toMatchObject({ message: 'could not create a thread in "a.json": a file is in the way of a folder of that name' });
    expect(await refusal(conn.request('workspace.rename', { path: 'gone.json', title: 'x' }))).toMatchObject({ code: 'not_found', message: 'gone.json does not exist' });
    expect(await refusal(conn.request('workspace.move', { path: 'a.json', toFolder: 'nowhere' }))).toMatchObject({ code: 'not_found' });
    expect(await refusal(conn.request('workspace.duplicate', { path: 'gone.json' }))).toMatchObject({ message: 'gone.json: no such file' });
    fs.rmSync(ws, { recursive: true });
    fs.writeFileSync(ws, 'not a folder');
    expect((await refusal(conn.request('workspace.list', {}))).message).toMatch(/^could not (list|look up) the workspace folder: a file is in the way of a folder of that name$/);
    expect(await refusal(conn.request('thread.open', { path: 'a.json' }))).toMatchObject({ message: 'could not look up "a.json": a file is in the way of a folder of that name' });
  });

  it('run.get: a run file that is not JSON names it from $STEPWISE_HOME', async () => {
    const { conn } = await start();
    const t = scriptedThread([{ text: 'hi' }]);
    fs.mkdirSync(path.join(home, 'runs', t.id), { recursive: true });
    fs.writeFileSync(path.join(home, 'runs', t.id, 'r1.json'), '{ not json');
    const err = await refusal(conn.request('run.get', { threadId: t.id, runId: 'r1' }));
    expect(err).toMatchObject({ code: 'bad_run_file', message: expect.stringContaining(`$STEPWISE_HOME/runs/${t.id}/r1.json: `) });
  });

  it.skipIf(isRoot)('permission denied: reading a thread, listing a folder, saving into a read-only folder', async () => {
    const { conn, ws } = await start();
    writeThread(home, 'locked.json', scriptedThread([{ text: 'hi' }]));
    fs.chmodSync(path.join(ws, 'locked.json'), 0o000);
    fs.mkdirSync(path.join(ws, 'Closed'));
    fs.mkdirSync(path.join(ws, 'ReadOnly'));
    try {
      expect((await refusal(conn.request('thread.open', { path: 'locked.json' }))).message).toBe('locked.json: permission denied');
      fs.chmodSync(path.join(ws, 'Closed'), 0o000);
      expect(await refusal(conn.request('workspace.list', {}))).toMatchObject({ message: 'could not list "Closed": permission denied' });
      fs.chmodSync(path.join(ws, 'Closed'), 0o755);
      fs.chmodSync(path.join(ws, 'ReadOnly'), 0o555);
      expect(await refusal(conn.request('workspace.create', { folder: 'ReadOnly', title: 'x' }))).toMatchObject({ code: 'io', message: 'could not save "ReadOnly/x.json": permission denied' });
    } finally {
      fs.chmodSync(path.join(ws, 'locked.json'), 0o644);
      fs.chmodSync(path.join(ws, 'Closed'), 0o755);
      fs.chmodSync(path.join(ws, 'ReadOnly'), 0o755);
    }
  });
});
