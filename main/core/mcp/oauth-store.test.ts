import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { OAuthStore, oauthStorePath } from './oauth-store';

const home = () => fs.mkdtempSync(path.join(os.tmpdir(), 'stepwise-oauth-store-'));
const sealing = { encrypt: (t: string) => `safe:v1:${Buffer.from(t).toString('base64')}`, decrypt: (s: string) => {
  if (!s.startsWith('safe:v1:')) throw new Error('not sealed here');
  return Buffer.from(s.slice(8), 'base64').toString();
} };

describe('OAuthStore', () => {
  it('keeps each server\'s credentials in a 0600 file; with a codec the file holds no token in clear', async () => {
    const h = home();
    const store = new OAuthStore(h, sealing);
    await store.save('a', { tokens: { access_token: 'secret-a' } });
    await store.save('b', { client: { client_id: 'cb' } });
    expect(fs.statSync(oauthStorePath(h)).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(oauthStorePath(h), 'utf8')).not.toContain('secret-a');
    expect(await store.load()).toEqual({ a: { tokens: { access_token: 'secret-a' } }, b: { client: { client_id: 'cb' } } });
    // Without the codec (another keychain) the sealed entries cannot be opened: they are left out.
    expect(await new OAuthStore(h, { encrypt: (t) => t, decrypt: () => { throw new Error('wrong key'); } }).load()).toEqual({});
  });

  it('a missing or broken file is empty, never a throw', async () => {
    const h = home();
    expect(await new OAuthStore(h).load()).toEqual({});
    fs.mkdirSync(path.dirname(oauthStorePath(h)), { recursive: true });
    fs.writeFileSync(oauthStorePath(h), '{not json');
    expect(await new OAuthStore(h).load()).toEqual({});
    fs.writeFileSync(oauthStorePath(h), JSON.stringify({ a: 'plain string', b: [1], c: { tokens: { access_token: 't' } } }));
    expect(await new OAuthStore(h).load()).toEqual({ c: { tokens: { access_token: 't' } } });
  });
});
