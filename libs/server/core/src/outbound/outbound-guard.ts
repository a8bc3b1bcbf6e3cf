import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, connect, isIP, Socket, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** One address a host name resolves to. */
export type ResolvedAddress = { address: string; family: 4 | 6 };
/** Resolves a host name (never an address) to every address it has; throws when it has none. */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

/** The operating system's resolver (what a connection would use). */
export const systemResolver: HostResolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** A target refused by the outbound rules; the message says which rule. */
export class OutboundTargetDenied extends Error {
  readonly code = 'OUTBOUND_TARGET_DENIED';

  constructor(
    readonly host: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'OutboundTargetDenied';
  }
}

/**
 * Never a target, whatever the allow-list says: "this network", link-local (169.254/16 holds the
 * cloud metadata services), multicast, reserved and broadcast, the unspecified and link-local IPv6
 * ranges, and the metadata services that live elsewhere (Alibaba Cloud 100.100.100.200, AWS's IPv6).
 */
const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('224.0.0.0', 4, 'ipv4');
NEVER.addSubnet('240.0.0.0', 4, 'ipv4');
NEVER.addAddress('100.100.100.200', 'ipv4');
NEVER.addAddress('::', 'ipv6');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6');

/** Inside the deployment (loopback, private, shared, benchmarking ranges): only when allow-listed. */
const INTERNAL = new BlockList();
INTERNAL.addSubnet('127.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('10.0.0.0', 8, 'ipv4');
INTERNAL.addSubnet('172.16.0.0', 12, 'ipv4');
INTERNAL.addSubnet('192.168.0.0', 16, 'ipv4');
INTERNAL.addSubnet('100.64.0.0', 10, 'ipv4');
INTERNAL.addSubnet('198.18.0.0', 15, 'ipv4');
INTERNAL.addAddress('::1', 'ipv6');
INTERNAL.addSubnet('fc00::', 7, 'ipv6');
INTERNAL.addSubnet('fec0::', 10, 'ipv6');

/** Names of cloud metadata services, refused before any lookup. */
const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

/** What the rules make of one address. */
export type AddressClass = 'never' | 'internal' | 'public';

/** An IPv4 address carried in an IPv6 one (`::ffff:169.254.169.254`, `::ffff:a9fe:a9fe`), else the address. */
function unmapped(address: string): { address: string; family: 4 | 6 } {
  const family = isIP(address) === 6 ? 6 : 4;
  if (family === 4) return { address, family };
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return { address: dotted[1], family: 4 };
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
    return { address: [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'), family: 4 };
  }
  return { address, family };
}

export function classifyAddress(raw: string): AddressClass {
  const { address, family } = unmapped(raw);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (NEVER.check(address, type)) return 'never';
  if (INTERNAL.check(address, type)) return 'internal';
  return 'public';
}

/** `[::1]` -> `::1`, lower case, no trailing dot. */
function hostOf(host: string): string {
  return host
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * The hosts allowed to be internal: `*` (any), a name (`localhost`, `redis`), `*.corp.example` (its
 * subdomains), an address or a CIDR range (`10.1.0.0/16`). Link-local and metadata addresses stay refused.
 */
export class OutboundAllowList {
  private readonly any: boolean;
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly ranges = new BlockList();

  constructor(readonly entries: readonly string[]) {
    this.any = entries.includes('*');
    for (const entry of entries.map((e) => e.trim().toLowerCase())) {
      if (entry === '*' || entry === '') continue;
      const [address, prefix] = entry.split('/');
      const family = isIP(hostOf(address));
      if (family !== 0) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        if (prefix === undefined) this.ranges.addAddress(hostOf(address), type);
        else this.ranges.addSubnet(hostOf(address), Number(prefix), type);
      } else if (entry.startsWith('*.')) {
        this.suffixes.push(entry.slice(1));
      } else {
        this.names.add(hostOf(entry));
      }
    }
  }

  allows(host: string, address: string): boolean {
    if (this.any) return true;
    const name = hostOf(host);
    if (this.names.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix))) return true;
    const { address: plain, family } = unmapped(address);
    return this.ranges.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** Whether `entry` is something `OutboundAllowList` understands (for configuration checks). */
export function isHostPattern(entry: string): boolean {
  if (entry === '*') return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(hostOf(address));
  if (family !== 0) {
    if (rest.length > 0) return false;
    return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
  }
  return (
    prefix === undefined &&
    /^(\*\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/i.test(entry)
  );
}

export type OutboundRequestInit = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  signal?: AbortSignal;
  /** Redirects followed (each checked like the first target); 5 by default, 0 answers the 3xx itself. */
  maxRedirects?: number;
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The one gate for outbound connections to targets users configure (alert checks, webhooks, mail and
 * SMS providers): a name is resolved first and every address it has must pass; link-local, metadata and
 * reserved addresses never do; loopback and private addresses only for hosts on the allow-list; redirects
 * are followed by hand and each is checked again; a connection goes to the address that was checked (the
 * `lookup` below), so a name that changes after the check cannot lead elsewhere.
 */
export class OutboundGuard {
  constructor(
    readonly allowList: OutboundAllowList,
    private readonly resolver: HostResolver = systemResolver,
  ) {}

  /** Why `address` (reached through `host`) is refused, or undefined. */
  addressProblem(host: string, address: string): string | undefined {
    const name = hostOf(host);
    const what = name === hostOf(address) ? `${address} is` : `${name} resolves to ${address},`;
    switch (classifyAddress(address)) {
      case 'never':
        return `${what} a link-local, metadata or reserved address, where outbound requests never go`;
      case 'internal':
        return this.allowList.allows(name, address)
          ? undefined
          : `${what} an internal address: an administrator must allow ${name} (OUTBOUND_ALLOWED_HOSTS)`;
      case 'public':
        return undefined;
    }
  }

  /** The refusal of a host that needs no lookup (an address, a metadata name), else undefined. */
  literalProblem(host: string): string | undefined {
    const name = hostOf(host);
    if (METADATA_NAMES.has(name))
      return `${name} is a cloud metadata service: outbound requests never go there`;
    return isIP(name) === 0 ? undefined : this.addressProblem(name, name);
  }

  /** The addresses of `host`, every one allowed; throws OutboundTargetDenied (or the lookup's error). */
  async resolveAllowed(host: string): Promise<ResolvedAddress[]> {
    const name = hostOf(host);
    const literal = this.literalProblem(name);
    if (literal !== undefined) throw new OutboundTargetDenied(name, literal);
    const family = isIP(name);
    const addresses = family !== 0 ? [{ address: name, family: family as 4 | 6 }] : await this.resolver(name);
    for (const { address } of addresses) {
      const problem = this.addressProblem(name, address);
      if (problem !== undefined) throw new OutboundTargetDenied(name, problem);
    }
    return addresses;
  }

  /**
   * The check when a target is saved: a refusal to show the user, or undefined. A name that does not
   * resolve now is accepted (it may later; it is checked whenever it is used).
   */
  async problemAtSave(host: string): Promise<string | undefined> {
    try {
      await this.resolveAllowed(host);
      return undefined;
    } catch (error) {
      return error instanceof OutboundTargetDenied ? error.message : undefined;
    }
  }

  /** For `net.connect`, `http.request` and the like: resolves through the rules (addresses bypass it). */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolveAllowed(hostname).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6
            ? found.filter((a) => a.family === options.family)
            : found;
        const list = wanted.length > 0 ? wanted : found;
        if (options.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  /** A TCP connection to a checked address of `host` (pinned: no second lookup). */
  async connect(host: string, port: number): Promise<Socket> {
    const [target] = await this.resolveAllowed(host);
    return connect({ host: target.address, port });
  }

  /**
   * A socket for a library that opens its own connections synchronously (Kafka brokers, including those
   * the cluster announces): names go through `lookup`, an address is checked here; a refused one gives a
   * socket that fails with the refusal.
   */
  socket(host: string, port: number, onConnect: () => void): Socket {
    const problem = this.literalProblem(host);
    if (problem !== undefined) {
      const refused = new Socket();
      process.nextTick(() => refused.destroy(new OutboundTargetDenied(hostOf(host), problem)));
      return refused;
    }
    return connect({ host, port, lookup: this.lookup }, onConnect);
  }

  /**
   * `fetch` for http(s) targets under the rules: each URL is checked before it is requested, redirects
   * are followed by hand (303, and 301/302 after a POST, become a GET without body, as browsers do; an
   * authorization header is not carried to another origin).
   */
  async fetch(url: string, init: OutboundRequestInit = {}): Promise<Response> {
    let current = new URL(url);
    let method = (init.method ?? 'GET').toUpperCase();
    let body = init.body;
    let headers = { ...init.headers };
    const maxRedirects = init.maxRedirects ?? 5;
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') {
        throw new OutboundTargetDenied(current.hostname, `${current.protocol} is not http or https`);
      }
      await this.resolveAllowed(current.hostname);
      const res = await this.requestOnce(current, method, headers, body, init.signal);
      const location = res.headers.get('location');
      if (!REDIRECTS.has(res.status) || location === null || maxRedirects === 0) return res;
      await res.body?.cancel();
      if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects from ${url}`);
      const next = new URL(location, current);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      if (next.origin !== current.origin) {
        headers = Object.fromEntries(
          Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'),
        );
      }
      current = next;
    }
  }

  private requestOnce(
    url: URL,
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Response> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      // No pooled connection: every request resolves and is checked on its own.
      const options = { method, headers, signal, lookup: this.lookup, agent: false as const };
      const req = send(url, options, (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const empty = method === 'HEAD' || [204, 205, 304].includes(status);
        if (empty) res.resume();
        try {
          resolve(
            new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              statusText: res.statusMessage,
              headers: headersOf(res.headers),
            }),
          );
        } catch (error) {
          res.destroy();
          reject(error as Error);
        }
      });
      req.on('error', reject);
      req.end(body);
    });
  }
}

function headersOf(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
