import {
  classifyAddress,
  isHostPattern,
  OutboundAllowList,
  OutboundGuard,
  type HostResolver,
} from './outbound-guard';

/** A resolver that knows a few names (no DNS in unit tests). */
const names: Record<string, string[]> = {
  'api.example.com': ['93.184.216.34'],
  'rebound.example.com': ['93.184.216.34', '169.254.169.254'],
  'intranet.example.com': ['10.1.2.3'],
  'redis.corp.example': ['10.9.0.5'],
  localhost: ['127.0.0.1', '::1'],
};
const resolver: HostResolver = async (host) => {
  const found = names[host];
  if (found === undefined)
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const guard = (allowed: string[] = []) => new OutboundGuard(new OutboundAllowList(allowed), resolver);

describe('outbound targets', () => {
  it.each([
    ['169.254.169.254', 'never'],
    ['169.254.0.23', 'never'],
    ['100.100.100.200', 'never'],
    ['0.0.0.0', 'never'],
    ['224.0.0.1', 'never'],
    ['255.255.255.255', 'never'],
    ['fe80::1', 'never'],
    ['::', 'never'],
    ['fd00:ec2::254', 'never'],
    ['::ffff:169.254.169.254', 'never'],
    ['::ffff:a9fe:a9fe', 'never'],
    ['127.0.0.1', 'internal'],
    ['10.0.0.1', 'internal'],
    ['172.20.0.1', 'internal'],
    ['192.168.1.1', 'internal'],
    ['100.64.0.1', 'internal'],
    ['::1', 'internal'],
    ['fd12::1', 'internal'],
    ['::ffff:127.0.0.1', 'internal'],
    ['93.184.216.34', 'public'],
    ['2606:2800:220:1::1', 'public'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it.each<[string, string[], string, string | undefined]>([
    [
      'the metadata address',
      ['*'],
      '169.254.169.254',
      '169.254.169.254 is a link-local, metadata or reserved address, where outbound requests never go',
    ],
    [
      'a metadata name',
      ['*'],
      'metadata.google.internal',
      'metadata.google.internal is a cloud metadata service: outbound requests never go there',
    ],
    [
      'a name with one address in link-local (resolved first, every address checked)',
      ['*'],
      'rebound.example.com',
      'rebound.example.com resolves to 169.254.169.254, a link-local, metadata or reserved address, where outbound requests never go',
    ],
    [
      'loopback, not allowed',
      [],
      'localhost',
      'localhost resolves to 127.0.0.1, an internal address: an administrator must allow localhost (OUTBOUND_ALLOWED_HOSTS)',
    ],
    ['loopback by name', ['localhost'], 'localhost', undefined],
    [
      'a private address, not allowed',
      ['localhost'],
      '10.0.0.7',
      '10.0.0.7 is an internal address: an administrator must allow 10.0.0.7 (OUTBOUND_ALLOWED_HOSTS)',
    ],
    ['a private address in an allowed range', ['10.0.0.0/8'], '10.0.0.7', undefined],
    ['a name resolving into an allowed range', ['10.1.0.0/16'], 'intranet.example.com', undefined],
    ['a subdomain pattern', ['*.corp.example'], 'redis.corp.example', undefined],
    ['an IPv6 literal in brackets', ['::1'], '[::1]', undefined],
    ['a public name', [], 'api.example.com', undefined],
    ['a name that does not resolve now (checked when used)', [], 'no-such.example', undefined],
  ])('at save time: %s', async (_case, allowed, host, problem) => {
    expect(await guard(allowed).problemAtSave(host)).toBe(problem);
  });

  it('when used, a name that does not resolve is an error of its own', async () => {
    await expect(guard().resolveAllowed('no-such.example')).rejects.toThrow('ENOTFOUND');
  });

  it('the lookup hands a connection only checked addresses, or the refusal', async () => {
    const lookup = (host: string, all: boolean) =>
      new Promise((resolve, reject) =>
        guard(['localhost']).lookup(host, { all }, (error, address, family) =>
          error ? reject(error) : resolve(all ? address : [address, family]),
        ),
      );
    expect(await lookup('localhost', false)).toEqual(['127.0.0.1', 4]);
    expect(await lookup('localhost', true)).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    await expect(lookup('rebound.example.com', false)).rejects.toMatchObject({
      name: 'OutboundTargetDenied',
    });
  });

  it('refuses a socket to a denied address without connecting', async () => {
    const socket = guard(['*']).socket('169.254.169.254', 80, () => undefined);
    const error = await new Promise<Error>((resolve) => socket.on('error', resolve));
    expect(error.message).toContain('169.254.169.254 is a link-local');
  });

  it.each([
    ['*', true],
    ['localhost', true],
    ['*.corp.example', true],
    ['10.0.0.0/8', true],
    ['::1', true],
    ['fd00::/8', true],
    ['10.0.0.0/33', false],
    ['http://x', false],
    ['a b', false],
    ['*.', false],
  ])('allow-list entry %j is understood: %s', (entry, ok) => {
    expect(isHostPattern(entry)).toBe(ok);
  });
});
