import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { effectiveProviders, listProviders, providersFileStatus, removeProvider, saveProvider, type KeyCodec } from '../../../main/core/settings/providers';

// A reversible stand-in for Electron's safeStorage (the real one needs the Electron binary).
const codec: KeyCodec = {
  encrypt: (t) => 'safe:v1:' + Buffer.from(t).reverse().toString('base64'),
  decrypt: (s) => {
    if (!s.startsWith('safe:v1:')) throw new Error('not sealed here');
    return Buffer.from(s.slice(8), 'base64').reverse().toString();
  },
};

describe('provider keys at rest', () => {
  it('a literal key is stored encrypted (0600), listed masked, and handed to runs in clear', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-keys-'));
    const listed = await saveProvider(home, { id: 'openai', api: 'openai-responses', apiKey: 'sk-test-1234567890abcd' }, codec);
    const file = path.join(home, 'settings', 'providers.json');
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('sk-test-1234567890abcd');
    expect(text).toContain('safe:v1:');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(listed.find((p) => p.id === 'openai')!.keyHint).toBe('sk-…abcd');
    expect((await effectiveProviders(home, codec)).find((p) => p.id === 'openai')!.apiKey).toBe('sk-test-1234567890abcd');
  });

  it('$ENV references are kept as they are; an unreadable stored key is a clear settings error', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-keys-'));
    await saveProvider(home, { id: 'anthropic', api: 'anthropic-messages', apiKey: '$MY_KEY' }, codec);
    expect(readFileSync(path.join(home, 'settings', 'providers.json'), 'utf8')).toContain('"$MY_KEY"');
    await saveProvider(home, { id: 'openai', api: 'openai-responses', apiKey: 'sk-abcdefghijkl' }, codec);
    const broken: KeyCodec = { encrypt: codec.encrypt, decrypt: () => { throw new Error('keychain locked'); } };
    await expect(listProviders(home, {}, broken)).rejects.toThrow(/provider "openai" cannot be read \(keychain locked\)/);
  });

  it('lists configured prices and refuses a malformed one naming the field', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-keys-'));
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(path.join(home, 'settings'), { recursive: true });
    const file = path.join(home, 'settings', 'providers.json');
    writeFileSync(file, JSON.stringify({ providers: [{ id: 'anthropic', api: 'anthropic-messages', prices: { 'claude-sonnet-4-5': { input: 3, output: 15 } } }] }));
    const listed = await listProviders(home, {});
    expect(listed.find((p) => p.id === 'anthropic')!.prices).toEqual({ 'claude-sonnet-4-5': { input: 3, output: 15 } });
    writeFileSync(file, JSON.stringify({ providers: [{ id: 'anthropic', api: 'anthropic-messages', prices: { m: { input: 'cheap', output: 1 } } }] }));
    // The list falls back to the built-ins; the file's status names the bad field.
    expect((await listProviders(home, {})).map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    expect((await providersFileStatus(home)).error).toMatch(/prices\/m\/input: must be a price in USD per million tokens/);
  });
});

describe('saving a provider from Settings', () => {
  it('refuses an id that is not a name, the offline built-ins, and a base URL that is not http(s), saying which field', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-prov-'));
    await expect(saveProvider(home, { id: 'my local', api: 'openai-completions' })).rejects.toThrow('Provider id "my local" is not valid');
    await expect(saveProvider(home, { id: 'scripted', api: 'openai-completions' })).rejects.toThrow('"scripted" is the built-in offline provider');
    await expect(saveProvider(home, { id: 'local', api: 'openai-completions', baseUrl: 'not a url' })).rejects.toThrow('Base URL "not a url" of provider "local" is not an http(s) URL');
    expect(existsSync(path.join(home, 'settings', 'providers.json'))).toBe(false);
    const saved = await saveProvider(home, { id: 'local', api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' });
    expect(saved.find((p) => p.id === 'local')).toMatchObject({ api: 'openai-completions', baseUrl: 'http://127.0.0.1:11434/v1' });
  });
});

describe('removing a provider from Settings', () => {
  it('deletes its encrypted key with its entry and keeps the other providers as they were', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-prov-'));
    await saveProvider(home, { id: 'local', api: 'openai-completions', apiKey: 'sk-local-0123456789' }, codec);
    await saveProvider(home, { id: 'openai', api: 'openai-responses', apiKey: 'sk-openai-0123456789' }, codec);
    const file = path.join(home, 'settings', 'providers.json');
    const sealed = (id: string) => (JSON.parse(readFileSync(file, 'utf8')).providers as { id: string; apiKey?: string }[]).find((p) => p.id === id)?.apiKey;
    const localKey = sealed('local')!;
    const openaiKey = sealed('openai')!;
    expect(localKey).toMatch(/^safe:v1:/);

    const listed = await removeProvider(home, 'local', codec);
    expect(listed.map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    expect(readFileSync(file, 'utf8')).not.toContain(localKey);
    expect(sealed('openai')).toBe(openaiKey);
    expect((await effectiveProviders(home, codec)).find((p) => p.id === 'openai')!.apiKey).toBe('sk-openai-0123456789');
    await expect(removeProvider(home, 'local', codec)).rejects.toThrow(`Provider "local" is not in ${file}; nothing was removed.`);
    await expect(removeProvider(home, 'replay')).rejects.toThrow(`"replay" is a built-in provider with nothing saved in ${file}; there is nothing to remove or reset.`);
  });

  it('resets a built-in provider: its saved key is forgotten and its key comes from the environment again', async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'stepwise-prov-'));
    await saveProvider(home, { id: 'openai', api: 'openai-responses', baseUrl: 'https://proxy.example.com/v1', apiKey: 'sk-openai-0123456789' }, codec);
    const env = { OPENAI_API_KEY: 'sk-env-9876543210' };
    const before = (await listProviders(home, env, codec)).find((p) => p.id === 'openai')!;
    expect(before).toMatchObject({ builtin: true, saved: true, baseUrl: 'https://proxy.example.com/v1' });
    expect(before.keyHint).toContain('6789');

    const listed = await removeProvider(home, 'openai', codec);
    expect(listed.map((p) => p.id)).toEqual(['openai', 'anthropic', 'scripted', 'replay']);
    expect(readFileSync(path.join(home, 'settings', 'providers.json'), 'utf8')).not.toContain('openai');
    const after = (await listProviders(home, env, codec)).find((p) => p.id === 'openai')!;
    expect(after.saved).toBeUndefined();
    expect(after.baseUrl).toBeUndefined();
    expect(after).toMatchObject({ builtin: true, detected: true });
    expect((await effectiveProviders(home, codec)).find((p) => p.id === 'openai')!.apiKey).toBe('$OPENAI_API_KEY');
  });
});
