import net from 'node:net';
import { ConfigError } from './env.js';

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY of a service: whose X-Forwarded-For (and -Proto, -Host) that service believes, as
 * Fastify's `trustProxy` takes it: IPv4/IPv6 addresses, CIDRs (172.16.0.0/12, fd00::/8) or the
 * names loopback, linklocal, uniquelocal; `none` believes nobody. Unset or blank: the service's
 * default. Checked here so that a typo fails the start instead of silently trusting the wrong peers.
 */
export function parseTrustProxy(name: string, raw: string | undefined, fallback: string[]): string[] {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (raw.trim().toLowerCase() === 'none') return [];
  const entries = raw.split(',').map((e) => e.trim());
  for (const entry of entries) {
    if (!isProxyEntry(entry)) {
      throw new ConfigError(
        `${name} must be a comma-separated list of IP addresses, CIDRs (e.g. 172.16.0.0/12, fd00::/8), loopback, linklocal or uniquelocal, or none; "${entry}" is none of these`,
      );
    }
  }
  return entries;
}

function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
