/**
 * A small child for the spawner contract tests, on the runner's real process link
 * (shared/process-port.node.ts): echoes `run` frames, and on command writes to stderr,
 * ignores SIGTERM and hangs, or posts a burst of frames and exits with a code.
 */
import { channelPort, flushLink } from '../../../shared/process-port.node.js';

type Cmd = { cmd: 'echo'; value: unknown } | { cmd: 'stderr'; text: string } | { cmd: 'hang' } | { cmd: 'burst-exit'; n: number; code: number } | { cmd: 'env'; name: string };

const run = channelPort<Cmd, unknown>('run');
const mcp = channelPort<unknown, unknown>('mcp');
mcp.onMessage((m) => mcp.post({ mcpEcho: m }));
run.onMessage((m) => {
  if (m.cmd === 'echo') run.post({ echo: m.value, pid: process.pid });
  else if (m.cmd === 'env') run.post({ env: process.env[m.name] ?? null });
  else if (m.cmd === 'stderr') process.stderr.write(m.text);
  else if (m.cmd === 'hang') {
    process.on('SIGTERM', () => {});
    run.post({ hanging: true });
    setInterval(() => {}, 1000);
  } else if (m.cmd === 'burst-exit') {
    for (let i = 1; i <= m.n; i++) run.post({ i });
    void flushLink().then(() => process.exit(m.code));
  }
});
run.post({ ready: true });
