/**
 * The host's Yjs document of a thread (thread-ydoc.ts) against hostile and refused updates: any
 * bytes either apply or are refused with a HostError, and a refused update leaves the host's
 * document and the sender's (once it takes the host's answer) as they were.
 */
import * as Y from 'yjs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HostError } from '../errors';
import { HostYDoc } from './thread-ydoc';
import { findText, threadTypes, yToThread } from '../../../shared/thread/y-thread';
import { threadWith, userMessage } from '../../../tests/support/threads';

const THREAD = threadWith({ systemPrompt: 'sys', messages: [userMessage('hello', 'm1')] });
const thread = () => structuredClone(THREAD);

function joined() {
  const relayed: { update: Uint8Array; origin: string; except?: string }[] = [];
  const host = new HostYDoc(thread(), (update, origin, except) => relayed.push({ update, origin, except }));
  const win = new Y.Doc();
  Y.applyUpdate(win, host.state(new Uint8Array()));
  return { host, win, relayed };
}

describe('HostYDoc', () => {
  it('random bytes are applied or refused with a HostError, never a crash, and the document stays a thread', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const { host } = joined();
        try {
          host.receive(bytes, 'client:1', () => {});
        } catch (err) {
          expect(err).toBeInstanceOf(HostError);
        }
        expect(host.thread().context.messages[0].id).toBe('m1');
      }),
      { numRuns: 500 },
    );
  });

  it('a refused update is undone; the sender that takes the relayed revert is back where it was, the typing of others kept', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 5 }), fc.nat(5), (typed, at) => {
        const { host, win, relayed } = joined();
        const y = threadTypes(win);
        let update: Uint8Array | undefined;
        win.on('update', (u: Uint8Array) => (update = u));
        win.transact(() => {
          findText(y.messages, 'm1')!.insert(Math.min(at, 5), typed);
          y.systemPrompt.delete(0, 3);
        });
        expect(() =>
          host.receive(update!, 'client:1', () => {
            throw new HostError('read_only', 'a run runs');
          }),
        ).toThrow(/a run runs/);
        expect(host.thread()).toEqual(thread());
        for (const r of relayed) Y.applyUpdate(win, r.update);
        expect(yToThread(win)).toEqual(thread());
        expect(relayed.every((r) => r.origin === 'host' && r.except === undefined)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('an accepted update is relayed to the others only, with the patches it made', () => {
    const { host, win, relayed } = joined();
    let update: Uint8Array | undefined;
    win.on('update', (u: Uint8Array) => (update = u));
    threadTypes(win).systemPrompt.insert(3, '!');
    let seen: unknown;
    host.receive(update!, 'client:7', (patches) => (seen = patches));
    expect(seen).toEqual([{ op: 'replace', path: ['context', 'systemPrompt'], value: 'sys!' }]);
    expect(relayed).toHaveLength(1);
    expect(relayed[0].except).toBe('client:7');
  });
});
