/** `stepwise eval --queue`: the Redis scheduler as the command uses it. */
import { RedisScheduler, shownQueue } from '../../core/eval/redis-scheduler';

/**
 * The `--queue` scheduler. With no worker taking a case for a while (10 s, or
 * $STEPWISE_NO_WORKER_AFTER_MS ms when a positive number: tests use a short one), one line on
 * stderr says how to start one (the queue shown without its password).
 */
export function redisScheduler(url: URL, home: string, err: (line: string) => void): RedisScheduler {
  const v = Number(process.env.STEPWISE_NO_WORKER_AFTER_MS);
  const waited = (ms: number) => (ms % 1000 ? `${ms} ms` : `${ms / 1000} s`);
  return new RedisScheduler({
    url,
    home,
    noWorkerAfterMs: Number.isFinite(v) && v > 0 ? v : undefined,
    onError: (message) => err(`stepwise eval: ${message}`),
    onNoWorker: (ms) => err(`stepwise eval: no worker has taken a case yet after ${waited(ms)}; start one with \`stepwise worker --queue ${shownQueue(url)}\``),
  });
}
