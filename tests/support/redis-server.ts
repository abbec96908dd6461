/**
 * A real `redis-server` (Debian's package; `.ci/run` installs it) on a free loopback port, with
 * no persistence, for the evaluation queue's tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { accessSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/** Whether `redis-server` can be started here. */
export function redisServerPath(): string | undefined {
  for (const p of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    try {
      accessSync(p);
      return p;
    } catch {
      /* next */
    }
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** A started redis-server and how to stop it. */
export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** Starts redis-server and resolves once it accepts connections; with `password`, clients must sign in with it. */
export async function startRedis(options: { password?: string } = {}): Promise<RedisServer> {
  const bin = redisServerPath();
  if (!bin) throw new Error('redis-server is not installed (apt-get install redis-server)');
  const port = await freePort();
  const child: ChildProcess = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(options.password ? ['--requirepass', options.password] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`redis-server did not start: ${out.slice(-500)}`)), 20_000);
    const check = () => {
      if (out.includes('Ready to accept connections')) {
        clearTimeout(t);
        resolve();
      } else setTimeout(check, 50);
    };
    check();
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out.slice(-500)}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** Starts a redis-server before the file's tests and stops it after; returns it (valid inside tests). */
export function useRedis(): () => RedisServer {
  let redis: RedisServer | undefined;
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });
  return () => {
    if (!redis) throw new Error('useRedis(): used outside a test');
    return redis;
  };
}
