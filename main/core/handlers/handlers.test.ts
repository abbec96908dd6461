/**
 * The host API table drives dispatch (docs/architecture.md#host-api): every method of
 * shared/protocol/contract/host-methods.ts has exactly one handler in main/core/handlers/ and
 * every handler a method; a request whose params break the method's schema is refused with
 * `bad_request` ("<method>: <path>: <problem>") before its handler runs; any params, valid or
 * not, end either in the handler (with params that match) or in that refusal.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { HANDLERS, dispatch, type HandlerTable } from './index';
import { HOST_METHODS, HOST_METHOD_NAMES, type HostMethod } from '../../../shared/protocol/contract/host-methods';
import type { ClientState, HostContext } from '../host-context';
import { HostError } from '../errors';
import { violation } from '../../../tests/support/contract-values';

/** Handlers that record their calls and answer `{ handled: method }`; nothing else runs. */
function spies(): { table: HandlerTable; calls: { method: string; params: unknown }[] } {
  const calls: { method: string; params: unknown }[] = [];
  const table = Object.fromEntries(
    HOST_METHOD_NAMES.map((m) => [m, async (_ctx: HostContext, _client: ClientState, params: unknown) => (calls.push({ method: m, params }), { handled: m })]),
  ) as unknown as HandlerTable;
  return { table, calls };
}

const ctx = {} as HostContext;
const client = {} as ClientState;

async function outcome(p: Promise<unknown>): Promise<{ ok: true; value: unknown } | { ok: false; code: string; message: string }> {
  try {
    return { ok: true, value: await p };
  } catch (err) {
    expect(err).toBeInstanceOf(HostError);
    return { ok: false, code: (err as HostError).code, message: (err as HostError).message };
  }
}

describe('host method table and handlers', () => {
  it('has one handler per method and one method per handler', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(HOST_METHODS).sort());
    expect([...HOST_METHOD_NAMES].sort()).toEqual(Object.keys(HOST_METHODS).sort());
    for (const m of HOST_METHOD_NAMES) expect(typeof HANDLERS[m], m).toBe('function');
  });

  it.each(HOST_METHOD_NAMES.map((m) => [m]))('%s: params that break its schema are refused with bad_request before the handler runs', async (method) => {
    const { table, calls } = spies();
    const bad = violation(HOST_METHODS[method].params);
    expect(Value.Check(HOST_METHODS[method].params, bad.value)).toBe(false);
    const r = await outcome(dispatch(table, ctx, client, method, bad.value));
    expect(r).toMatchObject({ ok: false, code: 'bad_request' });
    expect((r as { message: string }).message.startsWith(`${method}: ${bad.path}: `)).toBe(true);
    expect(calls).toEqual([]);
    // The same request with valid params reaches the handler, with those params.
    const good = Value.Create(HOST_METHODS[method].params);
    expect(await outcome(dispatch(table, ctx, client, method, good))).toEqual({ ok: true, value: { handled: method } });
    expect(calls).toEqual([{ method, params: good }]);
  });

  it('refuses a name that is not in the table, own property names included, without running anything', async () => {
    const { table, calls } = spies();
    for (const name of ['fs.readFile', 'constructor', '__proto__', 'toString', 'hasOwnProperty', '', 42, null]) {
      const r = await outcome(dispatch(table, ctx, client, name, {}));
      expect(r, String(name)).toMatchObject({ ok: false, code: typeof name === 'string' ? 'unknown_method' : 'bad_request' });
    }
    expect(calls).toEqual([]);
  });

  it('any params: the handler runs with params matching the schema, or the request is refused with bad_request', async () => {
    const methods = fc.constantFrom(...HOST_METHOD_NAMES);
    await fc.assert(
      fc.asyncProperty(methods, fc.oneof(fc.anything(), fc.object(), fc.dictionary(fc.constantFrom('path', 'threadId', 'runId', 'count', 'patches', 'baseVersion', 'mode', 'title', 'id', 'server', 'name', 'entry'), fc.anything())), async (method: HostMethod, params) => {
        const { table, calls } = spies();
        const r = await outcome(dispatch(table, ctx, client, method, params));
        const valid = Value.Check(HOST_METHODS[method].params, params === undefined ? {} : params);
        if (valid) {
          expect(r).toEqual({ ok: true, value: { handled: method } });
          expect(calls).toHaveLength(1);
        } else {
          expect(r).toMatchObject({ ok: false, code: 'bad_request', message: expect.stringMatching(new RegExp(`^${method.replace('.', '\\.')}: /`)) });
          expect(calls).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a handler’s error leaves as a HostError with a code: its own, bad_thread_file, or internal', async () => {
    const { table } = spies();
    const fail = (err: unknown) => ({ ...table, 'workspace.list': async () => Promise.reject(err) }) as HandlerTable;
    expect(await outcome(dispatch(fail(new HostError('thread_running', 'busy')), ctx, client, 'workspace.list', {}))).toEqual({ ok: false, code: 'thread_running', message: 'busy' });
    expect(await outcome(dispatch(fail(Object.assign(new Error('gone'), { code: 'not_found' })), ctx, client, 'workspace.list', {}))).toEqual({ ok: false, code: 'not_found', message: 'gone' });
    expect(await outcome(dispatch(fail(new TypeError('x is undefined')), ctx, client, 'workspace.list', {}))).toEqual({ ok: false, code: 'internal', message: 'x is undefined' });
    expect(await outcome(dispatch(fail('a string'), ctx, client, 'workspace.list', {}))).toEqual({ ok: false, code: 'internal', message: 'a string' });
    const { ThreadFileError } = await import('../../../shared/thread/thread-text');
    const tf = new ThreadFileError('a.json', 'syntax', [{ pointer: '', message: 'line 1, column 2: expected a value' }] as never);
    expect(await outcome(dispatch(fail(tf), ctx, client, 'workspace.list', {}))).toMatchObject({ ok: false, code: 'bad_thread_file' });
  });
});
