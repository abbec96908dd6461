/**
 * A web host (host core + WebSocket server) in its own process, for tests that kill it with
 * SIGKILL: serves `$STEPWISE_HOME` on 127.0.0.1 with the token `$STEPWISE_TEST_TOKEN`, prints
 * `{ port }` as one JSON line once it listens, and stays up until it is killed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHostCore } from '../../main/core/host-core';
import { startWebHost } from '../../main/web/server';

const core = await createHostCore({ log: () => {} });
const web = await startWebHost({
  core: {
    connect: (send) => {
      const c = core.connect(send);
      return { handle: (m, p) => c.request(m, p), close: () => c.close() };
    },
  },
  staticDir: fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-static-')),
  port: 0,
  token: process.env.STEPWISE_TEST_TOKEN,
});
process.stdout.write(`${JSON.stringify({ port: web.port })}\n`);
setInterval(() => {}, 1000);
