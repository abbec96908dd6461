/**
 * A web host (`launchWebHost`) in its own process, for tests that must see whether a request
 * kills it: `$STEPWISE_HOME` is its home, `$STEPWISE_TEST_TOKEN` its token, `$STEPWISE_TEST_BIND`
 * the address to bind (default 127.0.0.1), `$STEPWISE_TEST_SEED=1` seeds the examples,
 * `$STEPWISE_TEST_SAVE_DEBOUNCE_MS` how long after an edit threads are saved. Prints
 * `{ port }` as one JSON line on stdout once it listens; its log lines go to stderr.
 */
import { launchWebHost } from '../../main/web/launch';

const app = await launchWebHost({
  home: process.env.STEPWISE_HOME,
  host: process.env.STEPWISE_TEST_BIND || undefined,
  port: 0,
  token: process.env.STEPWISE_TEST_TOKEN,
  open: false,
  seed: process.env.STEPWISE_TEST_SEED === '1',
  log: (line) => process.stderr.write(`${line}\n`),
  saveDebounceMs: process.env.STEPWISE_TEST_SAVE_DEBOUNCE_MS ? Number(process.env.STEPWISE_TEST_SAVE_DEBOUNCE_MS) : undefined,
});
process.stdout.write(`${JSON.stringify({ port: app.web.port })}\n`);
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
