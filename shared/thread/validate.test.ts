import { describe, expect, it } from 'vitest';
import { MAX_THREAD_DEPTH, schemaProblems, validateThread } from './validate';
import { Type } from '@sinclair/typebox';
import { AssertionSchema } from '../eval/dataset';
import { migrateThread } from './migrate';
import { parseJsonText } from './json-text';
import { newId, stableId } from './ids';
import type { Thread } from './schema';
import { threadWith } from '../../tests/support/threads';

const base = () => threadWith({ messages: [{ id: 'm1', role: 'user', content: [{ type: 'text', text: 'hi' }] }] }, { id: 't1', title: 'T' });

describe('validateThread', () => {
  it('accepts a valid thread and returns it', () => {
    const r = validateThread(base());
    expect(r.ok).toBe(true);
  });

  it('names the pointer and the accepted roles for a wrong role, once', () => {
    const t: any = base();
    t.context.messages.push({ id: 'm2', role: 'bot', content: [] }, { id: 'm3', role: 'user', content: [] }, { id: 'm4', role: 'system', content: [] });
    const r = validateThread(t);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([
      { pointer: '/context/messages/1/role', message: 'expected "user" or "assistant", got "bot"' },
      { pointer: '/context/messages/3/role', message: 'expected "user" or "assistant", got "system"' },
    ]);
  });

  it('checks a message against the variant its role picks, not every variant', () => {
    const t: any = base();
    t.context.messages.push({ id: 'm2', role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [{ id: 'c', name: 'f', arguments: '{"a":1}' }] });
    const r = validateThread(t);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual([{ pointer: '/context/messages/1/toolCalls/0/arguments', message: 'expected an object, got a string "{\\"a\\":1}"' }]);
  });

  it('reports each missing top-level property and a wrong type with its pointer', () => {
    const r = validateThread({ version: 1, id: 'x', title: 7 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const byPointer = Object.fromEntries(r.errors.map((e) => [e.pointer, e.message]));
    expect(byPointer).toEqual({
      '/title': 'expected a string, got the number 7',
      '/model': 'required property is missing',
      '/context': 'required property is missing',
      '/runRefs': 'required property is missing',
    });
  });

  it('reports an unknown content part type on the type property', () => {
    const t: any = base();
    t.context.messages[0].content.push({ type: 'video', url: 'x' });
    const r = validateThread(t);
    expect(!r.ok && r.errors).toEqual([{ pointer: '/context/messages/0/content/1/type', message: 'expected "text" or "image" or "document" or "resource", got "video"' }]);
  });
});

describe('image parts given inline or by URL', () => {
  it('accepts both, and names what is missing from an image that has neither data nor url', () => {
    const t: any = base();
    t.context.messages[0].content.push({ type: 'image', url: 'https://example.com/a.png', detail: 'low' }, { type: 'image', mimeType: 'image/png', data: 'AA==' });
    expect(validateThread(t).ok).toBe(true);
    t.context.messages[0].content.push({ type: 'image', mimeType: 'image/png' });
    const r = validateThread(t);
    expect(!r.ok && r.errors).toEqual([{ pointer: '/context/messages/0/content/3/data', message: 'required property is missing' }]);
  });
});

describe('migrateThread (legacy version 0)', () => {
  const legacy = {
    title: 'Old',
    model: 'openai/gpt-4o',
    context: {
      messages: [
        { role: 'user', content: 'hello' },
        { role: 'assistant', content: '', thinking: 'hmm', toolCalls: [{ name: 'ls', arguments: '{"p":"."}', output: 'a b' }, { name: 'bad', arguments: 'not json' }] },
      ],
    },
  };

  it('fills ids, runRefs, defaults and converts strings, producing a valid thread', () => {
    const migrated = migrateThread(legacy) as Thread;
    const r = validateThread(migrated);
    expect(r.ok).toBe(true);
    expect(migrated.model).toEqual({ provider: 'openai', id: 'gpt-4o', params: {} });
    expect(migrated.runRefs).toEqual([]);
    expect(migrated.context.messages[0]).toMatchObject({ id: 'msg-1', content: [{ type: 'text', text: 'hello' }] });
    const a = migrated.context.messages[1];
    expect(a.role === 'assistant' && a.content).toEqual([{ type: 'thinking', thinking: 'hmm' }]);
    expect(a.role === 'assistant' && a.toolCalls).toEqual([
      { id: 'msg-2-call-1', name: 'ls', arguments: { p: '.' }, output: { content: [{ type: 'text', text: 'a b' }], isError: false } },
      { id: 'msg-2-call-2', name: 'bad', arguments: {}, rawArguments: 'not json' },
    ]);
  });

  it('gives the same ids on every read and does not mutate its input', () => {
    const before = JSON.stringify(legacy);
    const a = migrateThread(legacy) as Thread;
    const b = migrateThread(JSON.parse(before)) as Thread;
    expect(a.id).toBe(b.id);
    expect(a.context.messages.map((m) => m.id)).toEqual(b.context.messages.map((m) => m.id));
    expect(JSON.stringify(legacy)).toBe(before);
  });

  it('returns a current document unchanged (same object)', () => {
    const t = base();
    expect(migrateThread(t)).toBe(t);
  });
});

describe('parseJsonText', () => {
  it('gives line and column of a syntax error', () => {
    const r = parseJsonText('{\n  "a": 1,\n  "b": tru\n}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problem).toMatchObject({ line: 3, column: 8, truncated: false });
  });

  it('says a cut-off text is truncated', () => {
    const r = parseJsonText('{"a": [1, 2, {"b": "cut');
    expect(!r.ok && r.problem.truncated).toBe(true);
    expect(!r.ok && r.problem.message).toMatch(/ends early \(truncated\?\)/);
  });

  it('names an early fault, not the end, when the text also ends unfinished', () => {
    const r = parseJsonText('{ not json');
    expect(!r.ok && r.problem).toMatchObject({ line: 1, column: 3, truncated: false, message: "unexpected 'not'" });
  });

  it('locates errors at the end of a large document', () => {
    const big = `{"x": [${Array.from({ length: 20000 }, (_, i) => `"s${i}"`).join(',')}], "y": }`;
    const r = parseJsonText(big);
    expect(!r.ok && r.problem.message).toMatch(/expected a value, found '}'/);
    expect(!r.ok && r.problem.offset).toBe(big.length - 1);
  });
});

describe('ids', () => {
  it('newId is unique and prefixed; stableId is deterministic and uuid-shaped', () => {
    expect(newId('msg')).toMatch(/^msg_[0-9a-f-]{36}$/);
    expect(newId()).not.toBe(newId());
    expect(stableId('a')).toBe(stableId('a'));
    expect(stableId('a')).not.toBe(stableId('b'));
    expect(stableId('a')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('migration keeps what it cannot read', () => {
  it('a legacy document with wrong-typed fields is reported, not emptied', () => {
    const r = validateThread(migrateThread({ id: 'x', title: 'T', model: 'gpt', context: { systemPrompt: 3, messages: 'nope' } }));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors.map((e) => e.pointer)).toEqual(expect.arrayContaining(['/context/messages', '/context/systemPrompt']));
  });
});

describe('schemaProblems', () => {
  it('names a value that is none of a union of objects once per kind, not once per variant', () => {
    expect(schemaProblems(Type.Array(AssertionSchema), [1])).toEqual([{ pointer: '/0', message: 'expected an object, got the number 1' }]);
  });
});

describe('nesting depth', () => {
  /** A thread whose one tool call's arguments nest `levels` objects deep (`{"a":{"a":…}}`), built without recursion. */
  function nested(levels: number): Thread {
    let args: Record<string, unknown> = {};
    for (let i = 1; i < levels; i++) args = { a: args };
    return threadWith({ messages: [{ id: 'a1', role: 'assistant', content: [], toolCalls: [{ id: 'c1', name: 'f', arguments: args }] }] });
  }
  // The arguments object sits at depth 6 (thread, context, messages, 0, toolCalls, 0, arguments).
  const argsDepth = 6;

  it('accepts a thread nested up to the bound, and names the first place past it', () => {
    expect(validateThread(nested(MAX_THREAD_DEPTH - argsDepth)).ok).toBe(true);
    const r = validateThread(nested(MAX_THREAD_DEPTH - argsDepth + 1));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0].pointer).toBe(`/context/messages/0/toolCalls/0/arguments/a/a/a/a/… (${MAX_THREAD_DEPTH - 10} more levels)`);
    expect(r.errors[0].message).toBe(`nested deeper than ${MAX_THREAD_DEPTH} levels (the thread could not be sent to a window or a model)`);
  });

  it('a thread nested 100,000 levels deep gets that answer too, not a stack overflow', () => {
    const r = validateThread(nested(100_000));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toMatch(/^nested deeper than/);
  });
});
