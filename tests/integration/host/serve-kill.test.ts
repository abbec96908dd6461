/**
 * What `bin/stepwise.mjs serve` acknowledged survives SIGKILL to its whole process group (issue
 * 29): the reported steps — a thread file with the system prompt "sys" and one user message,
 * `thread.open`, `thread.edit` of the system prompt to "X" answered `{ version: 1 }`, the group
 * killed, `serve --home` started again — then `thread.open` and the file on disk must say "X".
 * The kill comes at once after the answer, 50 ms after it and 300 ms after it (across the
 * debounced save). serve runs under tests/support/serve-group.ts's box, where the killed CLI
 * stays a zombie with its pid (a container whose first process is node): the edit log named by
 * that pid was taken for a live host's and left unreplayed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Thread } from '../../../shared/thread/schema';
import { makeHome, readThread, writeThread } from '../../support/host-harness';
import { startServeBox, type ServeBox } from '../../support/serve-group';
import { threadWith, userMessage } from '../../support/threads';
import type { WsClient } from '../../support/ws-client';

type Opened = { thread: Thread; version: number; path: string };

const boxes: ServeBox[] = [];
afterEach(() => {
  for (const b of boxes.splice(0)) b.close();
});
function box(): ServeBox {
  const b = startServeBox();
  boxes.push(b);
  return b;
}

/** Kill the group; in a box that does not reap, the killed CLI is left as a zombie (the condition of the report). */
async function killGroup(b: ServeBox): Promise<void> {
  const zombies = await b.kill();
  if (!b.reaps) expect(zombies.length).toBeGreaterThan(0);
}

const texts = (t: Thread) => t.context.messages.map((m) => (m.content[0] as { text: string }).text);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Type `text` after `before` into the system prompt, one acknowledged edit per key; returns the version reached. */
async function type(client: WsClient, threadId: string, from: number, before: string, text: string): Promise<number> {
  let version = from;
  for (let i = 1; i <= text.length; i++) {
    const value = before + text.slice(0, i);
    ({ version } = await client.call<{ version: number }>('thread.edit', { threadId, baseVersion: version, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value }], editId: `key-${value}` }));
  }
  return version;
}

describe('serve killed with SIGKILL to its process group', () => {
  it.each([0, 50, 300])('keeps an edit acknowledged %i ms before the kill', async (delay) => {
    const home = makeHome();
    const thread = threadWith({ systemPrompt: 'sys', messages: [userMessage('hello')] });
    writeThread(home, 'draft.json', thread);
    const b = box();

    const first = await b.serve(home);
    const opened = await first.client.call<Opened>('thread.open', { path: 'draft.json' });
    const answer = await first.client.call('thread.edit', { threadId: thread.id, baseVersion: opened.version, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'X' }] });
    if (delay) await sleep(delay);
    await killGroup(b);
    expect(answer).toEqual({ version: 1 });

    const second = await b.serve(home);
    const reopened = await second.client.call<Opened>('thread.open', { path: 'draft.json' });
    expect(reopened.thread.context.systemPrompt).toBe('X');
    expect(readThread(home, 'draft.json').context.systemPrompt).toBe('X');
    expect(fs.readdirSync(path.join(home, 'edits')).filter((n) => n.endsWith('.jsonl'))).toEqual([]);
  }, 120_000);

  it('keeps every edit of a row, a message text, a thread created and one renamed just before; a resend after the restart is applied once', async () => {
    const home = makeHome();
    const draft = threadWith({ systemPrompt: 'sys', messages: [userMessage('hello', 'm1')] }, { title: 'draft' });
    const other = threadWith({ systemPrompt: 'other' }, { title: 'other' });
    writeThread(home, 'draft.json', draft);
    writeThread(home, 'other.json', other);
    const b = box();

    const first = await b.serve(home);
    const created = await first.client.call<{ path: string }>('workspace.create', { title: 'Fresh', thread: { context: { systemPrompt: 'made before the kill', tools: [], messages: [] } } });
    const renamed = await first.client.call<{ path: string }>('workspace.rename', { path: 'other.json', title: 'Other renamed' });
    const opened = await first.client.call<Opened>('thread.open', { path: 'draft.json' });
    let version = await type(first.client, draft.id, opened.version, '', 'Answer in French');
    ({ version } = await first.client.call<{ version: number }>('thread.edit', { threadId: draft.id, baseVersion: version, patches: [{ op: 'replace', path: ['context', 'messages', 0, 'content', 0, 'text'], value: 'hello there' }], editId: 'message-text' }));
    const add = { threadId: draft.id, baseVersion: version, patches: [{ op: 'add', path: ['context', 'messages', 1], value: userMessage('second', 'm2') }], editId: 'add-second' };
    const added = await first.client.call<{ version: number }>('thread.edit', add);
    await killGroup(b);
    expect(added.version).toBe(18);
    expect([created.path, renamed.path]).toEqual(['Fresh.json', 'Other renamed.json']);

    const second = await b.serve(home);
    const reopened = await second.client.call<Opened>('thread.open', { path: 'draft.json' });
    expect(reopened.thread.context.systemPrompt).toBe('Answer in French');
    expect(texts(reopened.thread)).toEqual(['hello there', 'second']);
    const onDisk = readThread(home, 'draft.json');
    expect([onDisk.context.systemPrompt, texts(onDisk)]).toEqual(['Answer in French', ['hello there', 'second']]);
    const fresh = await second.client.call<Opened>('thread.open', { path: 'Fresh.json' });
    expect(fresh.thread.context.systemPrompt).toBe('made before the kill');
    const moved = await second.client.call<Opened>('thread.open', { path: 'Other renamed.json' });
    expect([moved.thread.id, moved.thread.title]).toEqual([other.id, 'Other renamed']);
    expect(fs.existsSync(path.join(home, 'workspace', 'other.json'))).toBe(false);

    // The page never got the answer to the last edit (say) and sends it again: answered, not applied twice.
    await second.client.call('thread.edit', add);
    const now = await second.client.call<Opened>('thread.open', { path: 'draft.json' });
    expect(texts(now.thread)).toEqual(['hello there', 'second']);
  }, 120_000);
});

describe('serve killed with SIGKILL in the middle of renaming a thread with edits not saved yet', () => {
  it('replays the edits onto the renamed file (nothing put aside), and a resend of the last one is answered, applied once', async () => {
    const home = makeHome();
    const draft = threadWith({ systemPrompt: 'sys', messages: [userMessage('hello', 'm1')] }, { title: 'draft' });
    writeThread(home, 'draft.json', draft);
    const b = box();

    const first = await b.serve(home);
    const opened = await first.client.call<Opened>('thread.open', { path: 'draft.json' });
    // Acknowledged edits, in the edit log only: the rename comes before the debounced save.
    const version = await type(first.client, draft.id, opened.version, '', 'Fr');
    const add = { threadId: draft.id, baseVersion: version, patches: [{ op: 'add', path: ['context', 'messages', 1], value: userMessage('second', 'm2') }], editId: 'add-second' };
    const added = await first.client.call<{ version: number }>('thread.edit', add);
    const renamedFile = path.join(home, 'workspace', 'Draft renamed.json');
    // The rename moves the file (same inode), then writes the new title into it (a new inode):
    // the group is killed the moment that write lands, before the edit log follows it.
    const ino = fs.statSync(path.join(home, 'workspace', 'draft.json')).ino;
    const { replaced } = await b.killWhenReplaced(renamedFile, ino, () => {
      first.client.call('workspace.rename', { path: 'draft.json', title: 'Draft renamed' }).catch(() => {}); // never answered: killed first
    });
    expect(added.version).toBe(3);
    expect(replaced).toBe(true);
    const killedAt = readThread(home, 'Draft renamed.json');
    expect([killedAt.title, killedAt.context.systemPrompt, texts(killedAt)]).toEqual(['Draft renamed', 'sys', ['hello']]); // the edits were not saved

    const second = await b.serve(home);
    const reopened = await second.client.call<Opened>('thread.open', { path: 'Draft renamed.json' });
    expect([reopened.thread.id, reopened.thread.title, reopened.thread.context.systemPrompt, texts(reopened.thread)]).toEqual([draft.id, 'Draft renamed', 'Fr', ['hello', 'second']]);
    const onDisk = readThread(home, 'Draft renamed.json');
    expect([onDisk.title, onDisk.context.systemPrompt, texts(onDisk)]).toEqual(['Draft renamed', 'Fr', ['hello', 'second']]);
    expect(fs.existsSync(path.join(home, 'edits', 'aside'))).toBe(false);
    expect(fs.readdirSync(path.join(home, 'edits')).filter((n) => n.endsWith('.jsonl'))).toEqual([]);

    // The page never got the answer to the last edit (say) and sends it again: answered, not applied twice.
    await second.client.call('thread.edit', add);
    const now = await second.client.call<Opened>('thread.open', { path: 'Draft renamed.json' });
    expect(texts(now.thread)).toEqual(['hello', 'second']);
  }, 120_000);
});
