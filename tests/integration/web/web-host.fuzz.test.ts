/**
 * Property-based fuzz of the web host, in its own process on a temporary $STEPWISE_HOME:
 * - raw HTTP requests over a net.Socket (any method, any target, so invalid targets really
 *   reach it; any Host, Origin, token, cookie and WebSocket headers): each gets a status line;
 * - WebSocket text frames (any text, any JSON, request-shaped objects with odd ids, methods and
 *   params): each gets exactly one answer, `bad_request` when it is not a request;
 * - every host method (HOST_METHOD_NAMES, so a new one is covered) with arbitrary params: each gets
 *   a result or an error with a code, never `internal` (a handler that threw a TypeError).
 * After each case the process is alive; at the end a normal request still works. Generated
 * params are sanitised (tests/support/web-fuzz.ts) so no command runs and nothing is reached.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_METHOD_NAMES } from '../../../shared/protocol/contract/host-methods';
import { rawGet, rawRequest, startHostProcess, type HostProcess } from '../../support/web-host-process';
import { expectedAnswer, frameArb, fuzzSocket, paramsArb, rawRequestArb, sanitize, type Known, type Sandbox } from '../../support/web-fuzz';
import { scriptedThread } from '../../support/threads';

// endOnFailure: the host is stateful (and may be dead after a failure), so shrinking would
// report some other input than the one that failed.
/** Cases per phase: bounded so the whole file runs in well under a minute; STEPWISE_FUZZ_SCALE=10 digs deeper. */
const SCALE = Number(process.env.STEPWISE_FUZZ_SCALE) || 1;
const HTTP_RUNS = 400 * SCALE;
const FRAME_RUNS = 400 * SCALE;
const RUNS_PER_METHOD = 25 * SCALE;

let host: HostProcess;
let socket: Awaited<ReturnType<typeof fuzzSocket>>;
let sandbox: Sandbox;
/** Strings that name real things on the host (paths, ids), learnt from its answers, by kind. */
const known = { thread: new Set<string>(), path: new Set<string>(), run: new Set<string>(), node: new Set<string>(), any: new Set<string>(['fuzz', 'imported', 'scripted', 'openai']) };
const knownOf: Known = (kind) => [...known[kind]];

/** The two threads the fuzz works on: written (again, if the fuzz deleted them) and opened. */
async function openThreads(): Promise<void> {
  const files: [string, string][] = [['a.json', 'one two'], ['folder/b.json', 'three']];
  for (const [p, text] of files) {
    const file = path.join(host.home, 'workspace', p);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (!fs.existsSync(file)) fs.writeFileSync(file, JSON.stringify(scriptedThread([{ text }, { text }], { title: p })));
    learn(await socket.exchange(JSON.stringify({ id: 1, method: 'thread.open', params: { path: p } })));
  }
}

beforeAll(async () => {
  host = await startHostProcess({ env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', GEMINI_API_KEY: '' } });
  sandbox = { command: path.join(host.home, 'no-such-command'), file: path.join(host.home, 'import.json') };
  fs.writeFileSync(sandbox.file, JSON.stringify({ mcpServers: { imported: { command: sandbox.command } } }));
  socket = await fuzzSocket(host.port, host.token);
  await openThreads();
}, 60_000);

afterAll(async () => {
  socket?.close();
  await host?.stop();
});

/** Remember the paths and ids an answer names, so later params can hit real things. */
function learn(a: { result?: unknown }): void {
  const add = (kind: keyof typeof known, v: string) => known[kind].size < 100 && known[kind].add(v);
  const visit = (v: unknown, parent: string, depth: number) => {
    if (depth > 5 || !v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x !== 'string') visit(x, k, depth + 1);
      else if (k === 'path') add('path', x);
      else if (k === 'runId' || (k === 'id' && parent === 'runRefs')) add('run', x);
      else if (k === 'nodeId' || (k === 'id' && parent === 'toolCalls')) add('node', x);
      else if (k === 'threadId' || (k === 'id' && parent === 'thread')) add('thread', x);
      else if (k === 'id' || k === 'name') add('any', x);
    }
  };
  visit(a.result, '', 0);
}

function assertAlive(what: string): void {
  if (!host.alive()) throw new Error(`the web host exited after ${what}:\n${host.log().slice(-3000)}`);
}

/** One frame's answer: the right id, and an error with a code that is not an internal failure. */
function checkAnswer(frame: string, a: { id: unknown; result?: unknown; error?: { message?: unknown; code?: unknown } }): void {
  const want = expectedAnswer(frame);
  if ('refused' in want) {
    expect(a.error?.code, frame).toBe('bad_request');
    return;
  }
  expect(a.id, frame).toBe(want.id);
  if (!a.error) {
    expect('result' in a, frame).toBe(true);
    learn(a);
    return;
  }
  expect(typeof a.error.message, frame).toBe('string');
  expect(typeof a.error.code, `${frame} → ${String(a.error.message)}`).toBe('string');
  expect(a.error.code, `${frame} → ${String(a.error.message)}`).not.toBe('internal');
  const method = (JSON.parse(frame) as { method: string }).method;
  if ((HOST_METHOD_NAMES as readonly string[]).includes(method)) expect(a.error.code, frame).not.toBe('unknown_method');
}

describe('the web host under arbitrary input', () => {
  it('answers every raw HTTP request with a status line and stays up', async () => {
    await fc.assert(
      fc.asyncProperty(rawRequestArb(host.port, host.token), async (req) => {
        const answer = await rawRequest(host.port, req, 100);
        assertAlive(JSON.stringify(req));
        expect(answer.status, JSON.stringify(req)).toBeGreaterThanOrEqual(100);
      }),
      { numRuns: HTTP_RUNS, endOnFailure: true },
    );
  }, 120_000);

  it('answers every WebSocket text frame once, bad_request when it is not a request', async () => {
    await fc.assert(
      fc.asyncProperty(frameArb(paramsArb(knownOf)), async (raw) => {
        const frame = sanitizeFrame(raw);
        const a = await socket.exchange(frame);
        assertAlive(frame);
        checkAnswer(frame, a);
      }),
      { numRuns: FRAME_RUNS, endOnFailure: true },
    );
  }, 120_000);

  it.each(HOST_METHOD_NAMES)('%s: any params get a result or a coded error', async (method) => {
    await openThreads();
    let id = 10;
    await fc.assert(
      fc.asyncProperty(paramsArb(knownOf), async (params) => {
        const frame = JSON.stringify({ id: ++id, method, params: sanitize(params, sandbox) });
        const a = await socket.exchange(frame);
        assertAlive(frame);
        checkAnswer(frame, a);
      }),
      { numRuns: RUNS_PER_METHOD, endOnFailure: true },
    );
  }, 60_000);

  it('still serves a normal page request and a normal call afterwards', async () => {
    expect((await rawGet(host.port, '/api/session', { Authorization: `Bearer ${host.token}` })).status).toBe(204);
    const a = await socket.exchange(JSON.stringify({ id: 5, method: 'settings.app', params: {} }));
    expect(a).toMatchObject({ id: 5, result: { home: expect.any(String) } });
    assertAlive('the fuzz');
    // Nothing ran a command: the only one the fuzz could name does not exist.
    expect(fs.existsSync(sandbox.command)).toBe(false);
  });
});

/** A frame with its params sanitised when it parses as a JSON object (raw text is sent as is). */
function sanitizeFrame(frame: string): string {
  try {
    const msg = JSON.parse(frame);
    if (msg && typeof msg === 'object' && !Array.isArray(msg)) {
      const safe = JSON.stringify(sanitize(msg, sandbox));
      if (safe !== JSON.stringify(msg)) return safe; // else the original text (it may hold 1e400)
    }
  } catch {
    // not JSON: sent as is
  }
  return frame;
}
