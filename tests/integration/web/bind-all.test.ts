/**
 * `serve --host 0.0.0.0`: bound to every interface, the host answers to this machine's own
 * names and addresses (os.hostname(), os.networkInterfaces()) and the loopback names, and
 * still refuses any other name (a DNS rebinding page sends its own domain as Host).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../../main/web/server';
import { rawGet } from '../../support/web-host-process';

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-'));
let web: WebHost;
beforeAll(async () => {
  web = await startWebHost({ core: { connect: () => ({ request: async () => null, close: () => {} }) }, staticDir, host: '0.0.0.0', token: 'bind_all_token' });
});
afterAll(async () => {
  await web?.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const session = (host: string) => rawGet(web.port, '/api/session', { Host: host, Authorization: 'Bearer bind_all_token' });

describe('bound to all interfaces', () => {
  it("accepts the machine's host name, its interface addresses and the loopback names", async () => {
    const addresses = Object.values(os.networkInterfaces())
      .flatMap((l) => l ?? [])
      .map((a) => (a.family === 'IPv6' ? `[${a.address.split('%')[0]}]` : a.address));
    const names = [os.hostname(), os.hostname().toUpperCase(), ...addresses, 'localhost', '127.0.0.1', '[::1]'];
    for (const name of names) expect((await session(`${name}:${web.port}`)).status, name).toBe(204);
  });

  it('refuses a foreign name, and the right name on another port', async () => {
    for (const host of [`attacker.example:${web.port}`, `${os.hostname()}.attacker.example:${web.port}`, `${os.hostname()}:${web.port + 1}`]) {
      expect((await session(host)).status, host).toBe(421);
    }
  });

  it('prints a URL that opens on this machine', () => {
    expect(new URL(web.url).host).toBe(`127.0.0.1:${web.port}`);
  });
});
