// @vitest-environment jsdom
/**
 * A window opening a thread that repeats a message id and a tool call id: the real App (jsdom),
 * the renderer's web adapter over a real WebSocket to the real web host and host core, and the
 * thread file on disk. The playground names the repeats, is read-only, and offers "Give
 * duplicates new ids": one edit through the host (each tool call keeps its result), which Undo
 * takes back and Redo makes again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { browserShims } from '../../support/app-window';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { WebSocket as NodeWebSocket } from 'ws';
import { createHostCore } from '../../../main/core/host-core';
import { startWebHost } from '../../../main/web/server';
import { createWebHost } from '../../../renderer/src/host/web';
import { App } from '../../../renderer/src/App';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread, userMessage } from '../../support/threads';
import { makeHome, readThread, writeThread } from '../../support/host-harness';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

beforeAll(() => browserShims()); // jsdom lacks what Mantine, the panel layout and the editors ask of a browser

const cleanup: (() => Promise<void> | void)[] = [];
let root: Root | undefined;
afterEach(async () => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  for (const f of cleanup.splice(0).reverse()) await f();
});

/** m1 twice (a pasted copy); call_0 in two replies (a server that numbers each reply's calls from 0), each with its own result. */
function repeating(): Thread {
  const t = scriptedThread([], { title: 'repeats', messages: [userMessage('first', 'm1'), userMessage('pasted copy', 'm1')] });
  const result = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: false });
  t.context.messages.push(
    { id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 1 }, output: result('ONE') }] },
    { id: 'u2', role: 'user', content: [{ type: 'text', text: 'again' }] },
    { id: 'a2', role: 'assistant', content: [], toolCalls: [{ id: 'call_0', name: 'f', arguments: { n: 2 }, output: result('TWO') }] },
  );
  return t;
}

const button = (name: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === name || b.getAttribute('aria-label') === name);
const notice = () => [...document.querySelectorAll('[role="alert"]')].find((a) => a.textContent?.includes('repeats ids'));
const click = (b: HTMLButtonElement | undefined) => act(() => b!.click());
/** Wait for `cond`, letting the host's answers and pushes re-render the window (inside act) between checks. */
async function until(cond: () => unknown, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await act(() => new Promise((r) => setTimeout(r, 10)));
  }
}

describe('the offer to give repeated ids new ids', () => {
  it('names the repeats, keeps the thread read-only, and repairs them in one undoable edit through the host', async () => {
    const home = makeHome();
    const thread = repeating();
    writeThread(home, 'dup.json', thread);
    const core = await createHostCore({ home, log: () => {}, saveDebounceMs: 10 });
    const web = await startWebHost({
      core,
      staticDir: fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-')),
      port: 0,
      token: 'tok',
      log: () => {},
    });
    cleanup.push(() => core.close(), () => web.close());
    const origin = `http://127.0.0.1:${web.port}`;
    const WithOrigin = class extends NodeWebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers: { origin } });
      }
    };
    const adapter = createWebHost(origin, 'tok', { WebSocketImpl: WithOrigin as unknown as typeof WebSocket });
    cleanup.push(() => adapter.close());
    const onHost = () => core.threads.get(thread.id);

    const el = document.createElement('div');
    document.body.append(el);
    root = createRoot(el);
    await act(async () => root!.render(<MantineProvider><App host={adapter} initialPath="dup.json" /></MantineProvider>));
    await until(() => notice(), 'the repeated-ids notice');

    const text = notice()!.textContent!;
    expect(text).toContain('This thread repeats ids: it is read-only until they are made unique');
    expect(text).toContain('Message id "m1" is used by message 1 and message 2.');
    expect(text).toContain('Tool call id "call_0" is used by tool call 1 of message 3 and tool call 1 of message 5.');
    expect(document.body.textContent).toContain('repeated ids — read-only');
    // Read-only: no way to add, move or delete messages, no run (the playground's sections mount
    // one per task: wait for the messages section before looking for its buttons).
    await until(() => document.querySelector('section[aria-label^="Messages ("]'), 'the messages section');
    expect(button('Add user message')).toBeUndefined();
    expect(document.querySelector('[aria-label="Delete message 2"]')).toBeNull();
    expect(button('Continue')!.disabled).toBe(true);
    expect((document.querySelector('input[role="switch"]') as HTMLInputElement).disabled).toBe(true); // Auto-run tools

    click(button('Give duplicates new ids'));
    await until(() => !notice() && onHost().version === 1, 'the repair saved by the host');
    const fixed = onHost().thread;
    expect(fixed.context.messages.map((m) => m.id)).toEqual(['m1', 'm1-2', 'a1', 'u2', 'a2']);
    expect(fixed.context.messages[2]).toMatchObject({ toolCalls: [{ id: 'call_0', arguments: { n: 1 }, output: { content: [{ text: 'ONE' }] } }] });
    expect(fixed.context.messages[4]).toMatchObject({ toolCalls: [{ id: 'call_0-2', arguments: { n: 2 }, output: { content: [{ text: 'TWO' }] } }] });
    await until(() => button('Add user message'), 'the thread editable again'); // and it can run
    expect(button('Continue')!.disabled).toBe(false);
    expect(document.body.textContent).not.toContain('repeated ids — read-only');

    click(button('Undo'));
    await until(() => notice() && onHost().version === 2, 'the undo saved by the host');
    expect(onHost().thread.context.messages.map((m) => m.id)).toEqual(['m1', 'm1', 'a1', 'u2', 'a2']);
    click(button('Redo'));
    await until(() => !notice() && onHost().version === 3, 'the redo saved by the host');

    await core.threads.flush();
    const saved = readThread(home, 'dup.json');
    expect(saved.context.messages.map((m) => m.id)).toEqual(['m1', 'm1-2', 'a1', 'u2', 'a2']);
    expect(saved.context.messages.map((m) => (m.role === 'assistant' ? m.toolCalls![0].id : m.content[0].type))).toEqual(['text', 'text', 'call_0', 'text', 'call_0-2']);
    expect([...document.querySelectorAll('[role="alert"]')].map((a) => a.textContent)).toEqual([]); // no edit error either
  });
});
