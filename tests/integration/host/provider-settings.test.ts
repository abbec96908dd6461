/**
 * A broken settings/providers.json: its error names the line and column; the offline built-ins
 * (scripted, replay) still list and run; a run on any other provider, saving and removing are
 * refused with that error, and the file is left as it was. Saving only a key for a provider
 * keeps its API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listProviders, providersFileStatus, providersForRun, removeProvider, saveProvider } from '../../../main/core/settings/providers';
import type { ProviderInfo } from '../../../shared/protocol/host-api';
import type { Thread } from '../../../shared/thread/schema';
import { scriptedThread } from '../../support/threads';
import { bundledRunner } from '../../support/runner-bundle';
import { makeHome, RecordingClient, waitFor, writeThread, hostCores } from '../../support/host-harness';

const BROKEN = '{ "providers": [ { "id": "x", ';
const WHERE = /providers\.json: not valid JSON at line 1, column 31: the text ends early/;

function brokenHome(text = BROKEN): { home: string; file: string } {
  const home = makeHome();
  const file = path.join(home, 'settings', 'providers.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { home, file };
}

const startCore = hostCores();

describe('a providers.json that cannot be read', () => {
  it('lists the built-ins, tells the error with line and column, and refuses changes without writing', async () => {
    const { home, file } = brokenHome('{\n  "providers": [\n    { "id": "x" "api": "openai-completions" }\n  ]\n}\n');
    const before = fs.readFileSync(file, 'utf8');
    expect((await listProviders(home, {})).map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    expect(await providersFileStatus(home)).toEqual({ file, error: `${file}: not valid JSON at line 3, column 17: expected ',' or '}' after a property value, found '"'` });
    await expect(saveProvider(home, { id: 'openai', apiKey: 'sk-test-0123456789' })).rejects.toMatchObject({
      code: 'bad_settings',
      message: expect.stringMatching(/not valid JSON at line 3, column 17: .* Fix the file or delete it first: .*nothing was changed\.$/),
    });
    await expect(removeProvider(home, 'x')).rejects.toThrow(/line 3, column 17/);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
  });

  it('gives a run on scripted or replay the offline built-ins; a run on another provider fails naming the line and column', async () => {
    const { home } = brokenHome();
    expect((await providersForRun(home, 'scripted')).map((p) => p.id)).toEqual(['scripted', 'replay']);
    expect((await providersForRun(home, 'replay')).map((p) => p.id)).toEqual(['scripted', 'replay']);
    await expect(providersForRun(home, 'x')).rejects.toThrow(WHERE);
    await expect(providersForRun(home, 'openai')).rejects.toThrow(/^Provider "openai" cannot be looked up: .*providers\.json: not valid JSON at line 1, column 31: .*the offline providers scripted and replay run without it\.$/);
  });

  it('through the host: a scripted thread runs; a thread on a provider from the file is refused; Settings gets the built-ins and the error', async () => {
    const { home } = brokenHome();
    const offline = scriptedThread([{ text: 'still works' }]);
    const remote: Thread = { ...scriptedThread([]), model: { provider: 'x', id: 'm', params: {} } };
    writeThread(home, 'offline.json', offline);
    writeThread(home, 'remote.json', remote);
    const core = await startCore({ home, runnerEntry: bundledRunner() });
    const c = new RecordingClient();
    const conn = core.connect(c.send);
    expect(((await conn.request('settings.providers', {})) as ProviderInfo[]).map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    expect(((await conn.request('settings.providersFile', {})) as { error?: string }).error).toMatch(WHERE);

    await conn.request('thread.open', { path: 'offline.json' });
    await conn.request('stream.subscribe', { threadId: offline.id });
    const { runId } = (await conn.request('run.start', { threadId: offline.id, mode: 'step' })) as { runId: string };
    await waitFor(() => c.ended.get(runId), 20_000, 'run end');
    expect(c.ended.get(runId)).toBe('completed');

    await conn.request('thread.open', { path: 'remote.json' });
    await expect(conn.request('run.start', { threadId: remote.id, mode: 'step' })).rejects.toMatchObject({ code: 'bad_settings', message: expect.stringMatching(WHERE) });
  });
});

describe('saving a key for an existing provider', () => {
  it('keeps the API of a built-in or saved provider when none is given; a new provider needs one', async () => {
    const home = makeHome();
    const listed = await saveProvider(home, { id: 'openai', apiKey: 'sk-test-0123456789' });
    expect(listed.find((p) => p.id === 'openai')).toMatchObject({ api: 'openai-responses', keyHint: 'sk-…6789', saved: true });
    await saveProvider(home, { id: 'local', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' });
    const again = await saveProvider(home, { id: 'local', apiKey: 'sk-local-0123456789' });
    expect(again.find((p) => p.id === 'local')).toMatchObject({ api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' });
    await expect(saveProvider(home, { id: 'fresh', apiKey: 'sk-x' })).rejects.toThrow('Choose the API of the new provider "fresh" (openai-completions, openai-responses, anthropic-messages).');
  });
});

describe('a providers.json entry the runner’s contract would refuse', () => {
  it('is refused by the host naming the field (headers must be strings)', async () => {
    const { home, file } = brokenHome(JSON.stringify({ providers: [{ id: 'gw', api: 'openai-completions', headers: { 'x-team': 7 } }] }));
    expect(await providersFileStatus(home)).toEqual({ file, error: `${file}#/providers/0/headers/x-team: Expected string` });
    fs.writeFileSync(file, JSON.stringify({ providers: [{ id: 'gw', api: 'openai-completions', headers: { 'x-team': 'ml' } }] }));
    expect((await providersForRun(home, 'gw')).find((p) => p.id === 'gw')?.headers).toEqual({ 'x-team': 'ml' });
  });
});

describe('idleTimeoutMs of a provider in providers.json', () => {
  it('a bad value is refused naming the provider and the field; a valid one reaches the run and survives a key change', async () => {
    const entries = (slow: unknown) => JSON.stringify({
      providers: [
        { id: 'local', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1', idleTimeoutMs: 30000 },
        { id: 'slow', api: 'anthropic-messages', idleTimeoutMs: slow },
      ],
    });
    const { home, file } = brokenHome(entries('2 min'));
    const problem = `${file}#/providers/1/idleTimeoutMs (provider "slow"): must be a whole number of milliseconds from 100 to 300000 (default 120000), not "2 min"`;
    expect(await providersFileStatus(home)).toEqual({ file, error: problem });
    await expect(providersForRun(home, 'local')).rejects.toThrow(problem);
    for (const bad of [0, 99, 2.5, 300001, -1, null]) {
      fs.writeFileSync(file, entries(bad));
      expect((await providersFileStatus(home)).error).toBe(`${file}#/providers/1/idleTimeoutMs (provider "slow"): must be a whole number of milliseconds from 100 to 300000 (default 120000), not ${JSON.stringify(bad)}`);
    }

    fs.writeFileSync(file, entries(300000));
    const run = await providersForRun(home, 'local');
    expect(run.find((p) => p.id === 'local')?.idleTimeoutMs).toBe(30000);
    expect(run.find((p) => p.id === 'slow')?.idleTimeoutMs).toBe(300000);
    await saveProvider(home, { id: 'local', apiKey: 'sk-local-0123456789' });
    expect((await providersForRun(home, 'local')).find((p) => p.id === 'local')?.idleTimeoutMs).toBe(30000);
  });
});
