import { describe, expect, it } from 'vitest';
import { PushHub, pushIterable } from './push-queue';

describe('push cursor queue', () => {
  it('delivers items in order, including ones that arrive while the reader is busy', async () => {
    const hub = new PushHub<number>();
    const got: number[] = [];
    const reading = (async () => {
      for await (const n of pushIterable(hub.subscribe)) {
        got.push(n);
        if (n === 0) for (let i = 1; i <= 2500; i++) hub.emit(i); // arrive mid-iteration, cross a compaction
        if (n === 2500) break;
      }
    })();
    await Promise.resolve();
    hub.emit(0);
    await reading;
    expect(got).toEqual(Array.from({ length: 2501 }, (_, i) => i));
  });

  it('unsubscribes when the loop breaks', async () => {
    const hub = new PushHub<string>();
    const reading = (async () => {
      for await (const s of pushIterable(hub.subscribe)) if (s === 'stop') break;
    })();
    await Promise.resolve();
    expect(hub.size).toBe(1);
    hub.emit('a');
    hub.emit('stop');
    await reading;
    expect(hub.size).toBe(0);
  });

  it('ends and unsubscribes when the signal aborts while waiting', async () => {
    const hub = new PushHub<string>();
    const ac = new AbortController();
    const got: string[] = [];
    const reading = (async () => {
      for await (const s of pushIterable(hub.subscribe, ac.signal)) got.push(s);
    })();
    await Promise.resolve();
    hub.emit('x');
    await new Promise((r) => setTimeout(r, 0));
    ac.abort();
    await reading;
    expect(got).toEqual(['x']);
    expect(hub.size).toBe(0);
    hub.emit('late');
    expect(got).toEqual(['x']);
  });

  it('does not subscribe at all for an already aborted signal', async () => {
    const hub = new PushHub<string>();
    const ac = new AbortController();
    ac.abort();
    for await (const _ of pushIterable(hub.subscribe, ac.signal)) throw new Error('must not yield');
    expect(hub.size).toBe(0);
  });
});
