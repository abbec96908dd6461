/**
 * Repeated identifiers in a thread (validate.ts `findDuplicates`, `duplicateProblems`) and their
 * repair (ids.ts `giveDuplicatesNewIds`): any thread with one id used twice is reported with the
 * id and both places, and the repair leaves every id once, each tool result with its own call.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { duplicateIds, duplicateProblems, findDuplicates, validateThread } from './validate';
import { giveDuplicatesNewIds, makeToolCallIdsUnique } from './ids';
import type { AssistantMessage } from './messages';
import type { Thread } from './schema';

/** A valid thread with the given (distinct) ids: messages alternate user/assistant, calls go to assistant messages by `slots`. */
function build(messageIds: string[], callIds: string[], slots: number[], toolNames: string[]): Thread {
  const messages: Thread['context']['messages'] = messageIds.map((id, i) =>
    i % 2 === 0 ? { id, role: 'user', content: [{ type: 'text', text: `u${i}` }] } : { id, role: 'assistant', content: [] },
  );
  const assistants = messages.filter((m): m is AssistantMessage => m.role === 'assistant');
  callIds.forEach((id, k) => {
    const m = assistants[slots[k] % assistants.length];
    (m.toolCalls ??= []).push({ id, name: 'f', arguments: { k }, output: { content: [{ type: 'text', text: `result ${k}` }], isError: false } });
  });
  return {
    version: 1,
    id: 't',
    title: 'T',
    model: { provider: 'scripted', id: 'scripted', params: {} },
    context: { systemPrompt: '', tools: toolNames.map((name) => ({ type: 'function', name, parameters: {} })), messages },
    runRefs: [],
  };
}

type Slot = { pointer: string; get: () => string; set: (v: string) => void };

/** Every place of one kind of identifier, in document order. */
function slotsOf(t: Thread, kind: 'message' | 'toolCall' | 'toolName'): Slot[] {
  if (kind === 'toolName') return t.context.tools.map((tool, i) => ({ pointer: `/context/tools/${i}/name`, get: () => tool.name, set: (v) => void (tool.name = v) }));
  const out: Slot[] = [];
  t.context.messages.forEach((m, i) => {
    if (kind === 'message') out.push({ pointer: `/context/messages/${i}/id`, get: () => m.id, set: (v) => void (m.id = v) });
    else if (m.role === 'assistant') m.toolCalls?.forEach((c, j) => out.push({ pointer: `/context/messages/${i}/toolCalls/${j}/id`, get: () => c.id, set: (v) => void (c.id = v) }));
  });
  return out;
}

const ids = (max: number) => fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 0, maxLength: max });
const threadArb = fc
  .tuple(ids(8), ids(8), fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), ids(4))
  .filter(([m]) => m.length >= 2)
  .map(([m, c, slots, names]) => build(m, c, slots, names));

const NAMES = { message: 'message id', toolCall: 'tool call id', toolName: 'tool name' } as const;

describe('repeated ids', () => {
  it('property: a thread whose ids are distinct has no duplicates', () => {
    fc.assert(
      fc.property(threadArb, (t) => {
        expect(validateThread(t).ok).toBe(true);
        expect(findDuplicates(t)).toEqual([]);
        expect(duplicateProblems(t)).toEqual([]);
      }),
    );
  });

  it('property: one id used twice is reported with the id and both pointers, the later use as the problem', () => {
    fc.assert(
      fc.property(threadArb, fc.constantFrom('message', 'toolCall', 'toolName') as fc.Arbitrary<'message' | 'toolCall' | 'toolName'>, fc.nat(), fc.nat(), fc.boolean(), (t, kind, x, y, copyForward) => {
        const slots = slotsOf(t, kind);
        fc.pre(slots.length >= 2 && x % slots.length !== y % slots.length);
        const [first, later] = [slots[Math.min(x % slots.length, y % slots.length)], slots[Math.max(x % slots.length, y % slots.length)]];
        // Either the later use takes the earlier id or the other way round: the report is in document order.
        if (copyForward) later.set(first.get());
        else first.set(later.get());
        const id = first.get();
        expect(validateThread(t).ok).toBe(true); // not a schema error: the thread still loads
        expect(findDuplicates(t)).toEqual([{ kind, id, pointers: [first.pointer, later.pointer] }]);
        expect(duplicateProblems(t)).toEqual([{ pointer: later.pointer, message: expect.stringContaining(`${NAMES[kind]} ${JSON.stringify(id)} is also used at ${first.pointer}`) }]);
        expect(duplicateIds(t)).toHaveLength(kind === 'toolName' ? 0 : 1);
      }),
    );
  });

  it('property: the repair leaves each message and tool call id once, keeps first uses, and each result with its call', () => {
    fc.assert(
      fc.property(threadArb, fc.array(fc.tuple(fc.constantFrom('message', 'toolCall') as fc.Arbitrary<'message' | 'toolCall'>, fc.nat(), fc.nat()), { maxLength: 6 }), (t, copies) => {
        for (const [kind, x, y] of copies) {
          const slots = slotsOf(t, kind);
          if (slots.length >= 2) slots[y % slots.length].set(slots[x % slots.length].get());
        }
        const before = structuredClone(t);
        const renames = giveDuplicatesNewIds(t);
        expect(duplicateIds(t)).toEqual([]);
        expect(renames.length).toBe(duplicateProblems(before).length);
        for (const kind of ['message', 'toolCall'] as const) {
          const was = slotsOf(before, kind);
          const now = slotsOf(t, kind);
          const seen = new Set<string>();
          was.forEach((s, i) => {
            // A first use keeps its id; a repeat gets `<id>-<n>`.
            if (!seen.has(s.get())) expect(now[i].get()).toBe(s.get());
            else expect(now[i].get()).toMatch(new RegExp(`^${s.get().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d+$`));
            seen.add(s.get());
          });
        }
        // Nothing but ids changed: arguments and results stay where they were.
        const strip = (d: Thread) => JSON.stringify(d, (k, v) => (k === 'id' ? undefined : v));
        expect(strip(t)).toBe(strip(before));
      }),
    );
  });

  it('names every kind in the problems, and tells apart ids of different kinds', () => {
    const t = build(['m1', 'm2', 'm1', 'm4'], ['c', 'c', 'm1'], [0, 1, 0], ['get', 'get']);
    expect(duplicateProblems(t)).toEqual([
      { pointer: '/context/messages/2/id', message: 'message id "m1" is also used at /context/messages/0/id; ids must be unique in a thread' },
      { pointer: '/context/messages/3/toolCalls/0/id', message: 'tool call id "c" is also used at /context/messages/1/toolCalls/0/id; ids must be unique in a thread' },
      { pointer: '/context/tools/1/name', message: 'tool name "get" is also used at /context/tools/0/name; tools must have different names' },
    ]);
    // A tool call id equal to a message id is no repeat: they are never looked up together.
    expect(findDuplicates(t).some((d) => d.id === 'm1' && d.kind === 'toolCall')).toBe(false);
    giveDuplicatesNewIds(t);
    expect(t.context.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm1-2', 'm4']);
    expect(t.context.tools.map((x) => x.name)).toEqual(['get', 'get']); // names are the model's: not renamed
  });

  it('a new reply\'s tool call ids that repeat the thread\'s get the next free suffix', () => {
    const taken = new Set(['call_0', 'call_0-2', 'call_1']);
    const calls = [{ id: 'call_0' }, { id: 'call_1' }, { id: 'call_2' }, { id: 'call_2' }];
    makeToolCallIdsUnique(calls, taken);
    expect(calls.map((c) => c.id)).toEqual(['call_0-3', 'call_1-2', 'call_2', 'call_2-2']);
  });
});
