import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bearerToken, checkOrigin, checkToken, newToken, parseTarget, protocolToken, tokenMatches, validToken } from './security';
import { allowedHosts, hostNamesFor } from './host-names';

const hosts = allowedHosts('127.0.0.1', 5555);

describe('web host request checks', () => {
  it('accepts a loopback Host and the same Origin; refuses a rebinding Host (attacker domain, wrong port)', () => {
    for (const host of ['127.0.0.1:5555', 'localhost:5555', '[::1]:5555', 'LOCALHOST:5555']) expect(checkOrigin({ hosts, headers: { host } })).toEqual({ ok: true });
    for (const host of ['evil.example:5555', '127.0.0.1:5556', 'localhost', '']) {
      expect(checkOrigin({ hosts, headers: { host } })).toMatchObject({ ok: false, status: 421 });
    }
  });

  it('refuses a foreign Origin, and a WebSocket without Origin', () => {
    const host = '127.0.0.1:5555';
    expect(checkOrigin({ hosts, headers: { host, origin: 'http://evil.example' } })).toMatchObject({ ok: false, status: 403 });
    expect(checkOrigin({ hosts, headers: { host, origin: 'https://127.0.0.1:5555' } })).toMatchObject({ ok: false, status: 403 });
    expect(checkOrigin({ hosts, headers: { host, origin: 'null' } })).toMatchObject({ ok: false, status: 403 });
    expect(checkOrigin({ hosts, headers: { host }, websocket: true })).toMatchObject({ ok: false, status: 403 });
    expect(checkOrigin({ hosts, headers: { host, origin: 'http://localhost:5555' }, websocket: true })).toEqual({ ok: true });
  });

  it('a missing or wrong token is 401', () => {
    expect(checkToken('tok_abc', 'tok_abc')).toEqual({ ok: true });
    expect(checkToken('tok_abc', undefined)).toMatchObject({ ok: false, status: 401 });
    expect(checkToken('tok_abc', 'tok_abd')).toMatchObject({ ok: false, status: 401 });
  });

  it('token helpers: comparison, bearer header, subprotocol, format', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abc', 'abcd')).toBe(false);
    expect(tokenMatches('abc', '')).toBe(false);
    expect(tokenMatches('abc', undefined)).toBe(false);
    expect(bearerToken('Bearer q1')).toBe('q1');
    expect(bearerToken('bearer  q1 ')).toBe('q1');
    expect(bearerToken('Basic q1')).toBeUndefined();
    expect(protocolToken('stepwise.v1, stepwise.token.q-2_x')).toBe('q-2_x');
    expect(protocolToken('stepwise.v1')).toBeUndefined();
    expect(validToken(newToken())).toBe(true);
    expect(newToken()).toHaveLength(43);
    for (const bad of ['', 'a b', 'a,b', 'a/b', 'x'.repeat(257)]) expect(validToken(bad)).toBe(false);
  });

  it('a request target is a path; anything else is refused without throwing', () => {
    expect(parseTarget('/a/b?token=x')?.pathname).toBe('/a/b');
    expect(parseTarget('/a//b')?.pathname).toBe('/a//b');
    for (const bad of [undefined, '', '*', '//', '//evil.example/x', '//[', 'http://[', 'http://127.0.0.1/', 'x']) expect(parseTarget(bad)).toBeUndefined();
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const u = parseTarget(s);
        return u === undefined || u.host === 'host';
      }),
    );
  });
});

describe('Host names a server answers to', () => {
  const machine = () => ({ hostname: 'Box.lan', addresses: ['127.0.0.1', '192.0.2.10', '::1', 'fe80::1'] });

  it('a non-loopback bind allows only its own address', () => {
    expect(hostNamesFor('192.0.2.10')).toEqual(['192.0.2.10']);
    expect(allowedHosts('192.0.2.10', 80).has('192.0.2.10')).toBe(true);
  });

  it('a wildcard bind allows the machine names and addresses, and loopback, and nothing else', () => {
    const h = allowedHosts('0.0.0.0', 8080, machine);
    for (const ok of ['box.lan:8080', 'box:8080', 'box.local:8080', '192.0.2.10:8080', '[fe80::1]:8080', 'localhost:8080', '[::1]:8080']) expect(h.has(ok)).toBe(true);
    for (const no of ['0.0.0.0:8080', 'evil.example:8080', 'box.lan:8081', '192.0.2.11:8080']) expect(h.has(no)).toBe(false);
  });

  it('a wildcard bind reads the machine names again when an unknown one is asked for, at most every 5 s', () => {
    let addresses = ['192.0.2.10'];
    let now = 0;
    let reads = 0;
    const h = allowedHosts('::', 9, () => (reads++, { hostname: 'box', addresses }), () => now);
    addresses = ['198.51.100.7'];
    expect(h.has('198.51.100.7:9')).toBe(false); // read less than 5 s ago
    now = 6000;
    expect(h.has('198.51.100.7:9')).toBe(true);
    expect(h.has('evil.example:9')).toBe(false);
    expect(reads).toBe(2);
  });
});
