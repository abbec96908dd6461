/**
 * Errors a host method answers for a request that cannot be done carry a code and name the
 * thing in the workspace, not the host's absolute path (found by the web host fuzz test).
 */
import { describe, expect, it } from 'vitest';
import { scriptedThread } from '../../support/threads';
import { makeHome, hostCores } from '../../support/host-harness';

const startCore = hostCores();

describe('host method errors', () => {
  it('a thread created in a "folder" that is a thread file: refused with a code, named by its workspace path', async () => {
    const home = makeHome({ 'a.json': scriptedThread([{ text: 'x' }]) });
    const core = await startCore({ home });
    const c = core.connect(() => {});
    const err = await c.request('workspace.create', { folder: 'a.json', title: 'inside' }).then(
      () => undefined,
      (e: { code?: string; message: string }) => e,
    );
    expect(err?.code).toBe('exists');
    expect(err!.message).toContain('"a.json"');
    expect(err!.message).not.toContain(home);
  });

  it('a name too long for the file system is refused with a code, naming the limit and no absolute path', async () => {
    const home = makeHome();
    const core = await startCore({ home });
    const c = core.connect(() => {});
    const err = (await c.request('workspace.createFolder', { path: 'x'.repeat(300) }).catch((e) => e)) as { code?: string; message: string };
    expect(err.code).toBe('invalid');
    expect(err.message).toContain('255');
    expect(err.message).not.toContain(home);
  });
});
