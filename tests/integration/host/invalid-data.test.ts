/**
 * A thread file whose image data is not base64, opened through the real host core: it loads as it
 * is (nothing lost), and the host itself refuses its edits (`invalid_data`) and its runs, each
 * answer naming the JSON pointer of the broken data, so a window that does not show it read-only
 * (an old one, a script) cannot save over the file or send the data to a model. An edit that
 * would break the data of a valid thread is refused too; one that fixes the data is taken, and
 * the thread then runs. Real thread files, the real host core and runner.
 */
import { describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, readThread, RecordingClient, waitFor, rejection, hostCores } from '../../support/host-harness';

const startCore = hostCores();
/** A 1×1 PNG, valid base64. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const POINTER = '/context/messages/0/content/1/data';

function withImage(data: string): Thread {
  return scriptedThread([{ text: 'a cat' }], {
    messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image', mimeType: 'image/png', data }] }],
  });
}

async function openCore(thread: Thread) {
  const home = makeHome({ 't.json': thread });
  const core = await startCore({ home, runnerEntry: bundledRunner(), saveDebounceMs: 10 });
  const client = new RecordingClient();
  const conn = core.connect(client.send);
  const opened = (await conn.request('thread.open', { path: 't.json' })) as { thread: Thread; version: number };
  return { home, core, conn, client, opened };
}

describe('a thread whose image data is not base64', () => {
  it('opens as it is; thread.edit and run.start are refused naming the pointer; fixing the data is taken and it runs', async () => {
    const broken = withImage('iVBORw0K!!not base64');
    const { home, core, conn, client, opened } = await openCore(broken);
    expect((opened.thread.context.messages[0].content[1] as { data: string }).data).toBe('iVBORw0K!!not base64');

    const edit = await rejection(conn.request('thread.edit', { threadId: broken.id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'x' }] }));
    expect(edit.code).toBe('invalid_data');
    expect(edit.message).toContain(`is read-only: the data at ${POINTER} is not valid base64 (RFC 4648 §4): "!" at character 9 is not in the alphabet`);
    const run = await rejection(conn.request('run.start', { threadId: broken.id, mode: 'step' }));
    expect(run.code).toBe('invalid_data');
    expect(run.message).toContain(`The data at ${POINTER} is not valid base64`);
    const react = await rejection(conn.request('run.start', { threadId: broken.id, mode: 'react' }));
    expect(react.code).toBe('invalid_data');
    // Nothing was changed or saved over the file, and no run was started.
    await core.threads.flush();
    expect(readThread(home, 't.json')).toEqual(broken);
    expect(client.pushes.filter((p) => p.type === 'thread_patch')).toHaveLength(0);
    expect(await conn.request('run.list', { threadId: broken.id })).toEqual([]);

    // Fixing the data is an edit the host takes; then the thread runs.
    expect(await conn.request('thread.edit', { threadId: broken.id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'messages', 0, 'content', 1, 'data'], value: PNG }] })).toEqual({ version: 1 });
    await conn.request('stream.subscribe', {});
    const { runId } = (await conn.request('run.start', { threadId: broken.id, mode: 'step' })) as { runId: string };
    await waitFor(() => client.ended.get(runId), 30_000, 'run end');
    expect(client.ended.get(runId)).toBe('completed');
  });

  it('an edit that would make valid data invalid, or put in a data: URL, is refused naming the pointer', async () => {
    const good = withImage(PNG);
    const { home, core, conn } = await openCore(good);
    const edit = (data: string) => rejection(conn.request('thread.edit', { threadId: good.id, baseVersion: 0, patches: [{ op: 'replace', path: ['context', 'messages', 0, 'content', 1, 'data'], value: data }] }));
    const bad = await edit(PNG.slice(0, -1));
    expect(bad.code).toBe('invalid_edit');
    expect(bad.message).toContain(`the data at ${POINTER} of thread ${good.id} invalid`);
    const url = await edit(`data:image/png;base64,${PNG}`);
    expect(url.message).toContain('is a data: URL, not base64');
    await core.threads.flush();
    expect(readThread(home, 't.json')).toEqual(good);
  });
});
