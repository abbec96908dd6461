/**
 * A browser page across a lost connection, at the web-host level: the real host core and web
 * host, the renderer's web adapter (over the `ws` package) and its ThreadSession.
 * - The connection drops while the host lives on: edits made meanwhile are sent on reconnect,
 *   once, and the page keeps telling its own edits from other windows'.
 * - The host is restarted (new token, same port): the adapter is refused, says the session
 *   has ended, stops retrying, and the text typed meanwhile stays on screen.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStore } from 'jotai';
import { WebSocket as NodeWebSocket } from 'ws';
import { createHostCore, type HostCore } from '../../../main/core/host-core';
import { startWebHost, type WebHost } from '../../../main/web/server';
import { createWebHost } from '../../../renderer/src/host/web';
import { SESSION_ENDED_MESSAGE } from '../../../renderer/src/host/reconnect';
import { ThreadSession } from '../../../renderer/src/state/thread-session';
import type { HostResult } from '../../../shared/protocol/host-api';
import { scriptedThread, userMessage } from '../../support/threads';
import { makeHome, waitFor, writeThread } from '../../support/host-harness';
import { cleanups } from '../../support/cleanups';

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-'));
const defer = cleanups('test');

async function host(home: string, opts: { port?: number; token: string; core?: HostCore }) {
  const core = opts.core ?? (await createHostCore({ home, log: () => {} }));
  const refused: string[] = [];
  const web: WebHost = await startWebHost({
    core,
    staticDir,
    port: opts.port,
    token: opts.token,
    log: (l) => l.startsWith('refused') && refused.push(l),
  });
  return { core, web, refused, origin: `http://127.0.0.1:${web.port}` };
}

/** A page on `origin`: the web adapter (browsers send Origin; the `ws` client is told to) and a session of a.json. */
async function page(origin: string, token: string) {
  const WithOrigin = class extends NodeWebSocket {
    constructor(url: string, protocols: string[]) {
      super(url, protocols, { headers: { origin } });
    }
  };
  const adapter = createWebHost(origin, token, { WebSocketImpl: WithOrigin as unknown as typeof WebSocket, backoffMs: 20, maxBackoffMs: 100, schedule: (cb) => setTimeout(cb, 5) });
  const abort = new AbortController();
  defer(() => {
    abort.abort();
    adapter.close();
  });
  const opened = (await adapter.call('thread.open', { path: 'a.json', yjs: true })) as HostResult<'thread.open'>;
  const session = new ThreadSession(createStore(), adapter, opened);
  // As the window does (renderer/src/state/app.ts): back from reconnecting, the session joins again.
  let was = adapter.connection!().state;
  defer(adapter.onConnectionChange!(() => {
    const now = adapter.connection!().state;
    if (now === 'open' && was === 'reconnecting') session.resync();
    was = now;
  }));
  void (async () => {
    for await (const p of adapter.pushes(abort.signal)) if (p.type === 'thread_update') session.applyRemote(p);
  })();
  return { adapter, session, opened };
}

const OFFLINE = '00000000-0000-4000-8000-00000000000a';
const AFTER = '00000000-0000-4000-8000-00000000000b';
const prompt = (s: ThreadSession) => s.thread.context.systemPrompt;

describe('a page across a lost connection', () => {
  it('the host lives on: edits made while disconnected are sent once on reconnect, own echoes still recognised', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'hi' }], { title: 'a' }));
    const first = await host(home, { token: 'tok', port: 0 });
    defer(() => first.core.close());
    const { adapter, session, opened } = await page(first.origin, 'tok');
    const id = opened.thread.id;
    const onHost = () => (first.core.threads.has(id) ? first.core.threads.get(id).thread : undefined);
    session.edit((d) => void (d.context.systemPrompt = 'A'), 'systemPrompt');
    await waitFor(() => onHost()?.context.systemPrompt === 'A' && session.settled, 5000, 'first edit saved');

    await first.web.close(); // the sockets drop; the host core (and its runs) live on
    await waitFor(() => adapter.connection!().state === 'reconnecting', 5000, 'reconnecting');
    session.edit((d) => void (d.context.systemPrompt = 'AB'), 'systemPrompt');
    session.edit((d) => void d.context.messages.push(userMessage('typed while offline', OFFLINE)));
    expect(adapter.connection!().state).toBe('reconnecting');

    const second = await host(home, { token: 'tok', port: first.web.port, core: first.core });
    defer(() => second.web.close());
    await waitFor(() => adapter.connection!().state === 'open', 5000, 'reconnected');
    await waitFor(() => session.settled && onHost()?.context.systemPrompt === 'AB', 5000, 'offline edits saved');
    // After the reconnect the page is a new client; a message added now is applied once.
    session.edit((d) => void d.context.messages.push(userMessage('typed after', AFTER)));
    await waitFor(() => session.settled && onHost()?.context.messages.length === 3, 5000, 'edit after reconnect');
    await new Promise((r) => setTimeout(r, 100));
    expect(onHost()!.context.messages.map((m) => m.id).slice(1)).toEqual([OFFLINE, AFTER]);
    expect(session.thread).toEqual(onHost());
    expect(session.meta.error).toBeUndefined();
  });

  it('the host was restarted: the page says its session ended, stops retrying, keeps what was typed', async () => {
    const home = makeHome();
    writeThread(home, 'a.json', scriptedThread([{ text: 'hi' }], { title: 'a' }));
    const first = await host(home, { token: 'one', port: 0 });
    const { adapter, session } = await page(first.origin, 'one');
    session.edit((d) => void (d.context.systemPrompt = 'saved'), 'systemPrompt');
    await waitFor(() => session.settled && session.meta.version > 0, 5000, 'first edit saved');

    await first.web.close();
    await first.core.close(); // the host is gone
    await waitFor(() => adapter.connection!().unreachableSince !== undefined, 5000, 'nothing answers');
    session.edit((d) => void (d.context.systemPrompt = 'saved, then typed while the host was down'), 'systemPrompt');

    const second = await host(home, { token: 'two', port: first.web.port });
    defer(async () => {
      await second.web.close();
      await second.core.close();
    });
    await waitFor(() => adapter.connection!().state === 'ended', 5000, 'session ended');
    // The session check refuses the old token and takes the new one; the token check is as strict as ever.
    expect((await fetch(`${second.origin}/api/session`, { headers: { authorization: 'Bearer one' } })).status).toBe(401);
    expect((await fetch(`${second.origin}/api/session`, { headers: { authorization: 'Bearer two' } })).status).toBe(204);
    expect((await fetch(`${second.origin}/api/session`)).status).toBe(401);

    await waitFor(() => session.meta.error, 5000, 'the session reports the failed save');
    expect(session.meta.error!.message).toContain(SESSION_ENDED_MESSAGE);
    expect(prompt(session)).toBe('saved, then typed while the host was down'); // still on screen
    await expect(adapter.call('workspace.list', {})).rejects.toMatchObject({ code: 'session_ended', message: SESSION_ENDED_MESSAGE });
    await expect(adapter.call('run.start', { threadId: session.id, mode: 'step' })).rejects.toMatchObject({ code: 'session_ended' });
    // No more attempts: the refusals stop at the one that ended it.
    const refusals = second.refused.filter((l) => l.includes('WebSocket')).length;
    expect(refusals).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(second.refused.filter((l) => l.includes('WebSocket')).length).toBe(refusals);
  });
});
