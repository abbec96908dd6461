/**
 * Every host method's params are checked against the contract (docs/architecture.md#host-api)
 * by the real host core before anything happens: for each method, params that break one
 * property of its schema are refused with `bad_request` naming the method, the property and
 * the problem, and nothing changes (no workspace event, the thread file as it was).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_METHODS, HOST_METHOD_NAMES } from '../../../shared/protocol/contract/host-methods';
import { toWireError } from '../../../shared/protocol/contract/errors';
import { scriptedThread } from '../../support/threads';
import { makeHome, RecordingClient, hostCores } from '../../support/host-harness';
import { violation } from '../../support/contract-values';

const startCore = hostCores();

describe('host params against the contract', () => {
  it('refuses params that break each method’s schema with bad_request, changing nothing', async () => {
    const thread = scriptedThread([{ text: 'hi' }]);
    const home = makeHome({ 'a.json': thread });
    const before = fs.readFileSync(path.join(home, 'workspace', 'a.json'), 'utf8');
    const core = await startCore({ home, saveDebounceMs: 10 });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    await conn.request('thread.open', { path: 'a.json' });
    const answers: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const method of HOST_METHOD_NAMES) {
      const bad = violation(HOST_METHODS[method].params);
      answers[method] = await conn.request(method, bad.value).then(
        () => 'accepted',
        (err: unknown) => toWireError(err),
      );
      expected[method] = { code: 'bad_request', message: expect.stringMatching(new RegExp(`^${method.replace('.', '\\.')}: ${bad.path}: Expected`)) };
    }
    expect(answers).toEqual(expected);
    await core.threads.flush();
    expect(c.pushes.filter((p) => p.type === 'workspace_changed')).toEqual([]);
    expect(fs.readFileSync(path.join(home, 'workspace', 'a.json'), 'utf8')).toBe(before);
    expect(core.threads.get(thread.id).version).toBe(0);
  });
});
