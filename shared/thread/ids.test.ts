/** The one id maker (ids.ts): its format, with and without `crypto.randomUUID`. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newId, stableId } from './ids';

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('newId', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('makes a version 4 uuid, prefixed `<prefix>_` for messages and tool calls', () => {
    expect(newId()).toMatch(UUID4);
    const msg = newId('msg');
    expect(msg.startsWith('msg_')).toBe(true);
    expect(msg.slice(4)).toMatch(UUID4);
    expect(newId('call')).toMatch(/^call_/);
    expect(new Set(Array.from({ length: 1000 }, () => newId())).size).toBe(1000);
  });

  it('works where crypto.randomUUID does not exist (a page over plain HTTP is no secure context)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(a: T): T => real.getRandomValues(a as never) });
    const ids = Array.from({ length: 1000 }, () => newId('msg'));
    for (const id of ids) {
      expect(id).toMatch(/^msg_/);
      expect(id.slice(4)).toMatch(UUID4);
    }
    expect(new Set(ids).size).toBe(1000);
  });

  it('stableId is the same for the same seed and uuid-shaped', () => {
    expect(stableId('a')).toBe(stableId('a'));
    expect(stableId('a')).not.toBe(stableId('b'));
    expect(stableId('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
