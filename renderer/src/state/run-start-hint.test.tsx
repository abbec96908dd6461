import { describe, expect, it } from 'vitest';
import { AppState, runStartHint } from './app';
import { ThreadSession } from './thread-session';
import { HostCallError, type HostServices } from '../host/types';
import { exampleThread } from '../sample-thread';

// A host that refuses run.start with the given error, as the host core does (main/core/runs.ts).
function refusingHost(err: Error): HostServices {
  return {
    presentational: false,
    async call(method: string): Promise<any> {
      if (method === 'run.start') throw err;
      throw new Error(`unexpected ${method}`);
    },
    pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
  } as HostServices;
}

async function bannerFor(err: Error) {
  const app = new AppState(refusingHost(err));
  app.store.set(app.sessionAtom, new ThreadSession(app.store, app.host, { thread: exampleThread(), version: 1, path: 'a.json' }));
  await app.startRun('tool');
  return app.store.get(app.errorAtom);
}

describe('a refused run.start says what to try for its error code', () => {
  it('nothing pending: the thread changed, the playground shows what is pending; no word about the model', async () => {
    const banner = await bannerFor(new HostCallError('Tool call "call_9" is not pending in the last message (pending: get-sum (call_1)).', 'no_pending_tool_calls', 'run.start'));
    expect(banner).toMatchObject({ title: 'The run did not start', message: expect.stringContaining('get-sum (call_1)') });
    expect(banner?.hint).toMatch(/changed \(in another window, say\).*playground shows which tool calls are pending/);
    expect(banner?.hint).not.toMatch(/model|provider/);
  });

  it('repeated ids: points at the button that gives them new ids', async () => {
    const banner = await bannerFor(new HostCallError('The thread repeats ids (message id "m1" at /context/messages/0/id and /context/messages/1/id).', 'duplicate_ids', 'run.start'));
    expect(banner?.message).toContain('message id "m1"');
    expect(banner?.hint).toBe('Press Give duplicates new ids above the thread, then run again.');
  });

  it('a run is running: wait or press Stop', async () => {
    const banner = await bannerFor(new HostCallError('thread t already has a run running', 'thread_running', 'run.start'));
    expect(banner?.hint).toMatch(/wait for it to end or press Stop/);
    expect(banner?.hint).not.toMatch(/model|provider/);
  });

  it('a template error: the banner keeps its place, line and column and says how to fix it', async () => {
    const banner = await bannerFor(new HostCallError('systemPrompt, line 2, column 6: unknown block tag: iff', 'template_error', 'run.start'));
    expect(JSON.stringify(banner)).toContain('systemPrompt, line 2, column 6: unknown block tag: iff');
    expect(banner?.hint).toMatch(/Fix the template at the place, line and column named/);
  });

  it('only provider settings problems point at the model and provider', async () => {
    expect(runStartHint(new HostCallError('providers.json: not valid JSON', 'bad_settings'))).toMatch(/provider in Settings → Providers and the model in the playground/);
    for (const code of ['no_pending_tool_calls', 'duplicate_ids', 'thread_running', 'not_open', 'runner_failed', 'disconnected', 'bad_request', undefined]) {
      expect(runStartHint(new HostCallError('x', code)) ?? '').not.toMatch(/model|provider/);
    }
    expect(runStartHint(new Error('plain'))).toBeUndefined();
    expect(runStartHint(null)).toBeUndefined();
    expect((await bannerFor(new HostCallError('Lost the connection', 'disconnected')))?.hint).toBeUndefined();
  });

  it('the banner goes when a later run starts (it said nothing about that run)', async () => {
    let refuse = true;
    const host = {
      presentational: false,
      async call(method: string): Promise<any> {
        if (method !== 'run.start') throw new Error(`unexpected ${method}`);
        if (refuse) throw new HostCallError('systemPrompt, line 2, column 6: unknown block tag: iff', 'template_error', 'run.start');
        return { runId: 'r2' };
      },
      pushes: () => ({ [Symbol.asyncIterator]: async function* () {} }),
    } as HostServices;
    const app = new AppState(host);
    app.store.set(app.sessionAtom, new ThreadSession(app.store, app.host, { thread: exampleThread(), version: 1, path: 'a.json' }));
    await app.startRun('step');
    expect(app.store.get(app.errorAtom)?.title).toBe('The run did not start');
    refuse = false;
    await app.startRun('step');
    expect(app.store.get(app.errorAtom)).toBeNull();
  });
});
