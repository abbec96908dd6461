/** server-filesystem (npm) started with no folders: it reads and lists only the thread's roots. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpService } from '../../../main/core/mcp/service';
import { FILESYSTEM, harness, makeHome, startService, text, thread } from './harness';

describe('server-filesystem with the thread roots', () => {
  let svc: McpService;
  let h: Awaited<ReturnType<typeof harness>>;
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-roots-')));
  const other = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-other-')));

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello from a root\n');
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.writeFileSync(path.join(other, 'secret.txt'), 'outside');
    svc = startService(makeHome({ fs: { command: process.execPath, args: [FILESYSTEM] } }));
    h = await harness(svc, 'fs');
  });

  afterAll(async () => {
    h?.detach();
    await svc?.close();
  });

  it('reads and lists inside a root, and refuses outside it', async () => {
    const t = thread([dir]);
    const read = await h.call('read_text_file', { path: path.join(dir, 'notes.txt') }, { thread: t });
    expect(read.out.isError).toBe(false);
    expect(text(read.out)).toContain('hello from a root');
    const list = await h.call('list_directory', { path: dir }, { thread: t });
    expect(text(list.out)).toContain('[FILE] notes.txt');
    expect(text(list.out)).toContain('[DIR] sub');
    const outside = await h.call('read_text_file', { path: path.join(other, 'secret.txt') }, { thread: t });
    expect(outside.out.isError).toBe(true);
    expect(text(outside.out)).not.toContain('outside\n');
  });

  it('follows a change of roots (notifications/roots/list_changed)', async () => {
    const r = await h.call('read_text_file', { path: path.join(other, 'secret.txt') }, { thread: thread([other]) });
    expect(r.out.isError).toBe(false);
    expect(text(r.out)).toContain('outside');
  });
});
