import { describe, expect, it } from 'vitest';
import { allowedHosts, checkRequest, requestToken, tokenMatches } from './security';

const token = 'tok_abc';
const hosts = allowedHosts('127.0.0.1', 5555);
const url = (q = '') => new URL(`http://x/${q}`);

describe('web host request checks', () => {
  it('accepts the right token on a loopback Host, from query, bearer header or cookie', () => {
    expect(checkRequest({ token, hosts, url: url('?token=tok_abc'), headers: { host: '127.0.0.1:5555' } })).toEqual({ ok: true });
    expect(checkRequest({ token, hosts, url: url(), headers: { host: 'localhost:5555', authorization: 'Bearer tok_abc' } })).toEqual({ ok: true });
    expect(checkRequest({ token, hosts, url: url(), headers: { host: '[::1]:5555', cookie: 'a=b; stepwise_token=tok_abc' } })).toEqual({ ok: true });
  });

  it('refuses a missing or wrong token with 401', () => {
    expect(checkRequest({ token, hosts, url: url(), headers: { host: '127.0.0.1:5555' } })).toMatchObject({ ok: false, status: 401 });
    expect(checkRequest({ token, hosts, url: url('?token=tok_abd'), headers: { host: '127.0.0.1:5555' } })).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a rebinding Host (attacker domain, wrong port) even with the token', () => {
    for (const host of ['evil.example:5555', '127.0.0.1:5556', 'localhost', '']) {
      expect(checkRequest({ token, hosts, url: url('?token=tok_abc'), headers: { host } })).toMatchObject({ ok: false, status: 421 });
    }
  });

  it('refuses a foreign Origin, and a WebSocket without Origin', () => {
    const ok = { host: '127.0.0.1:5555', cookie: 'stepwise_token=tok_abc' };
    expect(checkRequest({ token, hosts, url: url(), headers: { ...ok, origin: 'http://evil.example' } })).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ token, hosts, url: url(), headers: { ...ok, origin: 'https://127.0.0.1:5555' } })).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ token, hosts, url: url(), headers: ok, websocket: true })).toMatchObject({ ok: false, status: 403 });
    expect(checkRequest({ token, hosts, url: url(), headers: { ...ok, origin: 'http://localhost:5555' }, websocket: true })).toEqual({ ok: true });
  });

  it('a non-loopback bind allows only its own address', () => {
    const h = allowedHosts('192.0.2.10', 80);
    expect([...h]).toEqual(['192.0.2.10:80']);
  });

  it('token helpers', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('abc', undefined)).toBe(false);
    expect(requestToken(url('?token=q'), { cookie: 'stepwise_token=c' })).toBe('q');
  });
});
