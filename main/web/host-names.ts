/**
 * Which `Host` header values the web host answers to (the DNS rebinding defence: a page of
 * `attacker.example` that re-resolves its name to 127.0.0.1 still sends `Host: attacker.example`).
 * - Bound to a loopback address: that address and the loopback names.
 * - Bound to all interfaces (`0.0.0.0`, `::`): this machine's own names (os.hostname()) and
 *   addresses (os.networkInterfaces()), and the loopback names. Addresses can change while the
 *   host runs (DHCP, VPN): an unknown name makes it look again, at most every few seconds.
 * - Bound to one other address: that address only.
 */
import os from 'node:os';
import type { HostNames } from './security';

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether an address is a loopback one. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Whether binding to `host` listens on every interface. */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}

/** What a machine calls itself: its host name and the addresses of its interfaces. */
export interface MachineNames {
  hostname: string;
  addresses: string[];
}

/** This machine's host name and interface addresses (IPv6 without a zone id). */
export function machineNames(): MachineNames {
  const addresses: string[] = [];
  for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) addresses.push(a.address.split('%')[0]);
  return { hostname: os.hostname(), addresses };
}

/** How an address or name appears in a `Host` header (IPv6 in brackets), lower-case. */
function hostForm(name: string): string {
  const n = name.toLowerCase();
  return n.includes(':') && !n.startsWith('[') ? `[${n}]` : n;
}

/** The names (without port) a server bound to `bound` answers to, given the machine's names. */
export function hostNamesFor(bound: string, machine: () => MachineNames = machineNames): string[] {
  const names = new Set<string>();
  if (isWildcard(bound)) {
    const m = machine();
    const host = m.hostname.toLowerCase();
    if (host) {
      names.add(host);
      const short = host.split('.')[0];
      names.add(short);
      names.add(`${short}.local`); // its mDNS name
    }
    for (const a of m.addresses) names.add(hostForm(a));
  } else {
    names.add(hostForm(bound));
  }
  if (isWildcard(bound) || isLoopback(bound)) for (const h of LOOPBACK_NAMES) names.add(h);
  return [...names];
}

/** How long a wildcard-bound server waits before reading the machine's names again, ms. */
const REFRESH_MS = 5000;

/**
 * The `Host` values (`name:port`, and the bare name on port 80) a server bound to `bound` on
 * `port` answers to. `machine` and `now` are injectable for tests.
 */
export function allowedHosts(bound: string, port: number, machine: () => MachineNames = machineNames, now: () => number = Date.now): HostNames {
  const build = () => new Set(hostNamesFor(bound, machine).flatMap((h) => (port === 80 ? [`${h}:80`, h] : [`${h}:${port}`])));
  let set = build();
  let readAt = now();
  return {
    has(host: string) {
      if (set.has(host)) return true;
      if (!isWildcard(bound) || now() - readAt < REFRESH_MS) return false;
      set = build();
      readAt = now();
      return set.has(host);
    },
  };
}
