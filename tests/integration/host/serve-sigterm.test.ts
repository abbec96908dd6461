/**
 * `kill -TERM -<pgid>` of `bin/stepwise.mjs serve` (a service manager, a CI job ending) reaches
 * both the wrapper and the CLI, and the wrapper passes SIGTERM on: the CLI saw two stops and the
 * second made it exit at once (130) before its last save (issue 29). One stop now: serve closes
 * cleanly, exit 0, the acknowledged edit is in the thread file and no edit log is left to replay.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome, readThread, writeThread } from '../../support/host-harness';
import { spawnCliGroup } from '../../support/cli-process';
import { threadWith, userMessage } from '../../support/threads';
import { connectWs } from '../../support/ws-client';

describe('serve stopped with SIGTERM to its process group', () => {
  it('saves the last acknowledged edit, leaves no edit log and exits 0', async () => {
    const home = makeHome();
    const thread = threadWith({ systemPrompt: 'sys', messages: [userMessage('hello')] });
    writeThread(home, 'draft.json', thread);
    const p = spawnCliGroup(['serve', '--no-open', '--no-seed', '--home', home], { CI: '1' });
    await expect.poll(p.out, { timeout: 60_000, interval: 100 }).toMatch(/running at (\S+)/);
    const u = new URL(/running at (\S+)/.exec(p.out())![1]!);
    const client = await connectWs(u.origin, u.searchParams.get('token')!);
    const opened = await client.call<{ version: number }>('thread.open', { path: 'draft.json' });
    const answer = await client.call('thread.edit', { threadId: thread.id, baseVersion: opened.version, patches: [{ op: 'replace', path: ['context', 'systemPrompt'], value: 'X' }] });
    expect(answer).toEqual({ version: 1 });
    process.kill(-p.child.pid!, 'SIGTERM');
    const code = await p.done;
    client.close();
    expect({ code, out: p.out() }).toMatchObject({ code: 0 });
    expect(readThread(home, 'draft.json').context.systemPrompt).toBe('X');
    const edits = path.join(home, 'edits');
    expect(fs.existsSync(edits) ? fs.readdirSync(edits).filter((n) => n.endsWith('.jsonl')) : []).toEqual([]);
  }, 120_000);
});
