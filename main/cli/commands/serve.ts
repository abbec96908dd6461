import type { Command } from 'commander';
import { launchWebHost } from '../../web/launch';
import { onStopSignals } from '../stop-signals';

/** Registers `stepwise serve [--port N] [--host ADDR] [--no-open] [--home DIR]`. */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('Start the web host: the app in your browser, on 127.0.0.1 with a per-launch token.')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '0')
    .option('--host <addr>', 'address to bind; anything but loopback is reachable from other machines', '127.0.0.1')
    .option('--no-open', 'print the URL without opening a browser')
    .option('--home <dir>', 'Stepwise home (default $STEPWISE_HOME or ~/.stepwise)')
    .option('--no-seed', 'do not add the example threads to an empty workspace')
    .action(async (opts: { port: string; host: string; open: boolean; home?: string; seed: boolean }) => {
      const port = Number(opts.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        process.stderr.write(`stepwise serve: --port must be a whole number from 0 to 65535, not "${opts.port}"\n`);
        process.exit(2);
      }
      const app = await launchWebHost({ home: opts.home, host: opts.host, port, open: opts.open && !process.env.CI, seed: opts.seed });
      process.stdout.write(`Stepwise is running at ${app.web.url}\n`);
      process.stdout.write(`Home: ${app.core.home}. Press Ctrl-C to stop.\n`);
      // The first stop closes the host (runs settled, edits saved); a second distinct one
      // (Ctrl-C again) exits at once. The group's duplicate SIGTERM is the same stop.
      onStopSignals((_signal, count) => {
        if (count > 1) process.exit(130);
        void app.close().then(() => process.exit(0));
      });
    });
}
