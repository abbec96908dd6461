/**
 * Refused requests are logged rate-limited: a flood of them (anyone who can reach the port can
 * send one) writes the first few lines of a window and then one line with how many more.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startWebHost, type WebHost } from '../../../main/web/server';
import type { RefusalLogOptions } from '../../../main/web/refusal-log';
import { rawGet, rawRequest } from '../../support/web-host-process';
import { waitFor } from '../../support/host-harness';

const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-'));
let web: WebHost | undefined;
afterEach(async () => {
  await web?.close();
  web = undefined;
});
afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));

async function host(refusalLog: RefusalLogOptions) {
  const lines: string[] = [];
  web = await startWebHost({ core: { connect: () => ({ request: async () => null, close: () => {} }) }, staticDir, token: 'the_token', log: (l) => lines.push(l), refusalLog });
  return { lines, port: web.port };
}

/** `n` refused requests of three kinds (no token, a wrong token in the page URL, a bad target). */
async function flood(port: number, n: number) {
  const kinds = ['/api/session', '/?token=wrong', '//'];
  for (let i = 0; i < n; i++) expect((await rawGet(port, kinds[i % 3])).status).toBeGreaterThanOrEqual(400);
}

const isSummary = (l: string) => /^refused \d+ more request/.test(l);

describe('the refusal log', () => {
  it('writes the first max lines of a window, then one line saying how many more', async () => {
    const { lines, port } = await host({ max: 5, windowMs: 600_000 });
    await flood(port, 60);
    await web!.close(); // ends the window: its summary is written
    web = undefined;
    expect(lines.filter((l) => !isSummary(l))).toHaveLength(5);
    expect(lines.filter((l) => !isSummary(l)).every((l) => l.startsWith('refused GET'))).toBe(true);
    expect(lines.filter(isSummary)).toEqual(['refused 55 more requests in 600 s (only the first 5 of a window are logged one by one)']);
  });

  it('writes the summary when the window ends, and starts logging again', async () => {
    const { lines, port } = await host({ max: 2, windowMs: 200 });
    await flood(port, 10);
    await waitFor(() => lines.some(isSummary), 5000, 'a summary line');
    await new Promise((r) => setTimeout(r, 250)); // every window has ended: the next request starts a new one
    const before = lines.length;
    await flood(port, 1);
    expect(lines.length).toBe(before + 1);
    expect(isSummary(lines.at(-1)!)).toBe(false);
    const counted = lines.filter(isSummary).reduce((n, l) => n + Number(/^refused (\d+)/.exec(l)![1]), 0);
    expect(lines.filter((l) => !isSummary(l)).length + counted).toBe(11);
  });

  it('logs refusals of the static files too: a bad percent-encoding, a path leading out, a method other than GET/HEAD', async () => {
    const { lines, port } = await host({ max: 20, windowMs: 600_000 });
    expect((await rawGet(port, '/%E0%A4%A')).status).toBe(400);
    expect((await rawGet(port, '/..%2F..%2Fetc%2Fpasswd')).status).toBe(403);
    const post = await rawRequest(port, `POST /index.html HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
    expect(post.status).toBe(405);
    expect(lines).toEqual([
      'refused GET "/%E0%A4%A": Malformed path: not valid percent-encoded UTF-8',
      'refused GET "/..%2F..%2Fetc%2Fpasswd": the path leads outside the app\'s files',
      'refused POST "/index.html": only GET and HEAD are served here',
    ]);
  });
});
