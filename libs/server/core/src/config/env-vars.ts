import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { isHostPattern } from '../outbound/outbound-guard';

/**
 * Building blocks for environment schemas. Every piece takes the raw string from the
 * environment and reports problems in the words `loadConfig` prints.
 */

/** An integer read from a string; the message echoes the raw value (numbers are never secrets). */
export function envInt(options: { min?: number; max?: number } = {}) {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = options;
  return z.string().transform((raw, ctx) => {
    const value = Number(raw.trim());
    if (raw.trim() === '' || !Number.isFinite(value)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected a number, got '${raw}'` });
      return z.NEVER;
    }
    if (!Number.isInteger(value) || value < min || value > max) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `expected an integer between ${min} and ${max}, got '${raw}'`,
      });
      return z.NEVER;
    }
    return value;
  });
}

/** A TCP port, 1..65535. */
export function envPort() {
  return envInt({ min: 1, max: 65535 });
}

/** A URL whose scheme is one of `protocols` (without the colon). The value is never echoed. */
export function envUrl(protocols: readonly string[]) {
  const accepted = protocols.map((p) => `${p}:`);
  return z.string().refine(
    (raw) => {
      try {
        return accepted.includes(new URL(raw).protocol);
      } catch {
        return false;
      }
    },
    { message: `expected a ${protocols.map((p) => `${p}://`).join(' or ')} URL` },
  );
}

const HOST_PORT = /^[A-Za-z0-9.-]+:\d{1,5}$/;

/** A comma-separated list of `host:port` pairs, e.g. Kafka bootstrap brokers. */
export function envHostPortList() {
  return z.string().transform((raw, ctx) => {
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    const bad = items.filter((item) => !HOST_PORT.test(item));
    if (items.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `expected a comma-separated list of host:port, got '${raw}'`,
      });
      return z.NEVER;
    }
    return items;
  });
}

/** `true`/`false`/`1`/`0`, case-insensitive. */
export function envBoolean() {
  return z.string().transform((raw, ctx) => {
    const normalized = raw.trim().toLowerCase();
    if (normalized === 'true' || normalized === '1') return true;
    if (normalized === 'false' || normalized === '0') return false;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected true or false, got '${raw}'` });
    return z.NEVER;
  });
}

/** The names Express's `trust proxy` setting knows for address ranges, and the ranges they stand for. */
const PROXY_RANGES: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};
const PROXY_RANGE_NAMES = Object.keys(PROXY_RANGES);

/**
 * Whether a peer is one of the trusted proxies of a TRUST_PROXY list (as `envProxyList` parsed it), the
 * way Express's `trust proxy` decides it: for servers that forward requests without Express (the console
 * server). An IPv4 address seen as IPv6 (`::ffff:127.0.0.1`) counts as the IPv4 one.
 */
export function trustedProxyMatcher(entries: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => PROXY_RANGES[e] ?? [e])) {
    const [address, prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (raw) => {
    if (!raw) return false;
    const address = raw.startsWith('::ffff:') && isIP(raw.slice(7)) === 4 ? raw.slice(7) : raw;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * The reverse proxies whose `X-Forwarded-For` is believed: a comma-separated list of addresses, CIDR
 * ranges or `loopback`/`linklocal`/`uniquelocal`; empty or `false` for none. `true` is refused: trusting
 * every peer lets any client name its own address (and so escape a per-address limit).
 */
export function envProxyList() {
  return z.string().transform((raw, ctx) => {
    const text = raw.trim().toLowerCase();
    if (text === '' || text === 'false') return [] as string[];
    const entries = text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    if (bad.length > 0 || text === 'true') {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message:
          text === 'true'
            ? "list the proxies' addresses (e.g. loopback or 10.0.0.0/8): trusting every peer lets any client choose its address"
            : `expected addresses, CIDR ranges or loopback/linklocal/uniquelocal, got '${bad.join(', ')}'`,
      });
      return z.NEVER;
    }
    return entries;
  });
}

/**
 * Hosts an administrator allows as outbound targets inside the network (`OutboundAllowList`): a
 * comma-separated list of names, `*.domain`, addresses, CIDR ranges, or `*`.
 */
export function envHostPatterns() {
  return z.string().transform((raw, ctx) => {
    const entries = raw
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter((entry) => entry !== '');
    const bad = entries.filter((entry) => !isHostPattern(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        message: `expected host names, *.domain, addresses, CIDR ranges or *, got '${bad.join(', ')}'`,
      });
      return z.NEVER;
    }
    return entries;
  });
}
