import { envProxyList, trustedProxyMatcher } from './env-vars';

const matcher = (raw: string) => trustedProxyMatcher(envProxyList().parse(raw));

describe('trustedProxyMatcher (TRUST_PROXY for servers without Express)', () => {
  it.each<[string, string | undefined, boolean]>([
    ['loopback', '127.0.0.1', true],
    ['loopback', '127.8.9.10', true],
    ['loopback', '::1', true],
    ['loopback', '::ffff:127.0.0.1', true],
    ['loopback', '10.0.0.1', false],
    ['uniquelocal', '10.1.2.3', true],
    ['uniquelocal', '172.20.0.5', true],
    ['uniquelocal', '172.32.0.5', false],
    ['uniquelocal', '192.168.1.1', true],
    ['uniquelocal', 'fd00::1', true],
    ['linklocal', '169.254.169.254', true],
    ['10.0.0.0/8, 203.0.113.7', '203.0.113.7', true],
    ['10.0.0.0/8, 203.0.113.7', '203.0.113.8', false],
    ['', '127.0.0.1', false],
    ['false', '127.0.0.1', false],
    ['loopback', undefined, false],
    ['loopback', 'not-an-address', false],
  ])('%s trusts %s: %s', (list, peer, trusted) => {
    expect(matcher(list)(peer)).toBe(trusted);
  });
});
