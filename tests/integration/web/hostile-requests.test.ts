/**
 * Requests that used to kill the whole web host (and with it every live run and unsaved edit),
 * sent over a raw socket to a host in its own process:
 * - before any token check, a target that is not a path (`//`, `//[`, `http://[`), on the
 *   request path and on the WebSocket upgrade path: answered 4xx;
 * - with the token, a path that does not percent-decode (`/%`, overlong UTF-8): 400;
 * - WebSocket text frames that are JSON but not a request (`null`, `42`, `"x"`, `[]`) and an
 *   id JSON cannot send back (`1e400`): answered `bad_request`, never run.
 * After each, the process is alive and a normal request works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { rawGet, rawUpgrade, startHostProcess, type HostProcess } from '../../support/web-host-process';

let host: HostProcess;
beforeAll(async () => {
  host = await startHostProcess();
});
afterAll(async () => {
  await host?.stop();
});

/** The host still runs and still answers the session check. */
async function stillServing(): Promise<void> {
  const ok = await rawGet(host.port, '/api/session', { Authorization: `Bearer ${host.token}` });
  expect(ok.status).toBe(204);
  expect(host.alive()).toBe(true);
}

describe('hostile requests never stop the web host', () => {
  it('a target that is not a path, without a token: 400 on requests and on WebSocket upgrades', async () => {
    for (const target of ['//', '//[', 'http://[', '*']) {
      expect((await rawGet(host.port, target)).status, `GET ${target}`).toBe(400);
      await stillServing();
      expect((await rawUpgrade(host.port, target)).status, `upgrade ${target}`).toBe(400);
      await stillServing();
    }
    expect(host.log()).not.toMatch(/TypeError|URIError|ERR_INVALID_URL/);
  });

  it('with the token, a path that does not percent-decode: 400', async () => {
    for (const target of ['/%', '/%c0%ae%c0%ae/x', '/a%ff%fe']) {
      expect((await rawGet(host.port, target, { Authorization: `Bearer ${host.token}` })).status, target).toBe(400);
      await stillServing();
    }
  });

  it('WebSocket frames that are not requests are answered bad_request, never run or left unanswered', async () => {
    const origin = `http://127.0.0.1:${host.port}`;
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/ws`, { headers: { origin, authorization: `Bearer ${host.token}` } });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const answers: { id: unknown; result?: unknown; error?: { code?: string; message: string } }[] = [];
    ws.on('message', (d) => {
      const msg = JSON.parse(String(d));
      if (!msg.push) answers.push(msg);
    });
    const frames = ['null', '42', '"x"', '[]', '{not json', 'true', '{"id":1e400,"method":"workspace.list"}', '{"id":"7","method":"workspace.list"}', '{"id":3}'];
    for (const f of frames) ws.send(f);
    ws.send(JSON.stringify({ id: 99, method: 'workspace.list', params: {} }));
    for (let i = 0; i < 500 && !answers.some((a) => a.id === 99); i++) await new Promise((r) => setTimeout(r, 10));
    expect(host.alive()).toBe(true);
    expect(answers.map((a) => a.error?.code)).toEqual([...frames.map(() => 'bad_request'), undefined]);
    expect(answers.at(-2)).toMatchObject({ id: 3 }); // a usable id is answered by that id
    expect(answers.at(-1)).toEqual({ id: 99, result: [] });
    ws.close();
    await stillServing();
  });
});
