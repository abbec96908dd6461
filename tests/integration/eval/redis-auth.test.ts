/**
 * A Redis that refuses the credentials in `--queue` (a real redis-server with a password):
 * `stepwise eval` stops at once with its cases ended `error` (exit 3) and `stepwise worker`
 * exits 2, each saying why in one line; neither ever prints the password (BullMQ's own report
 * of the error carries the AUTH command with it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { tempFolder } from '../../support/temp-folder';
import { startRedis, type RedisServer } from '../../support/redis-server';
import { runCliProcess } from '../../support/cli-process';

const dir = tempFolder('stepwise-redis-auth-', 'test');
const WRONG = 'not-the-s3cret';
let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedis({ password: 'the-right-one' });
}, 30_000);
afterAll(() => redis?.stop());

/** The server's URL signing in with the wrong password. */
const wrongUrl = () => redis.url.replace('redis://', `redis://default:${WRONG}@`);

describe('a Redis that refuses the credentials', () => {
  it('eval --queue ends its cases error at once, saying why without the password', async () => {
    const thread = {
      version: 1,
      id: '7b0e4f5e-5d7a-4a53-9a8e-3c1f6f1b0e09',
      title: 'Auth',
      model: { provider: 'scripted', id: 'scripted', params: { tokensPerSecond: 100000 }, script: [{ text: '4' }] },
      context: { systemPrompt: '', tools: [], messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: '2+2?' }] }] },
      runRefs: [],
    };
    await writeFile(dir('t.json'), JSON.stringify(thread));
    await writeFile(dir('d.jsonl'), '{"id":"q1"}\n{"id":"q2"}\n');
    const r = await runCliProcess(['eval', dir('t.json'), '--dataset', dir('d.jsonl'), '--queue', wrongUrl(), '--home', dir('home')]);
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^base: 0\/2 passed \(0%\) · 0 failed · 2 could not run/m);
    expect(r.stderr).toMatch(/^stepwise eval: Redis at redis:\/\/127\.0\.0\.1:\d+: WRONGPASS/m);
    expect(`${r.stdout}${r.stderr}`).not.toContain(WRONG);
    expect(r.stderr).not.toContain('AUTH');
  }, 120_000);

  it('worker exits 2, saying why once, without the password', async () => {
    const r = await runCliProcess(['worker', '--queue', wrongUrl(), '--home', dir('home-w')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^stepwise worker: Redis at redis:\/\/127\.0\.0\.1:\d+: WRONGPASS/m);
    expect(r.stderr.match(/WRONGPASS/g)).toHaveLength(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain(WRONG);
  }, 120_000);
});
